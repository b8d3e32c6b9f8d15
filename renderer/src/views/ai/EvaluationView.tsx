// How well a model did on the test documents, next to the model it is compared with: extraction per
// label (F1 chart, P/R/F1 table), categorization per category (accuracy), splitting by its split points.
import { useState } from 'react';
import type { AiOut } from '../../api/client.ts';
import { routePath } from '../../router.ts';
import { ScoreBars, type BarRow } from './ScoreBars.tsx';
import { byValueOf, categoriesOf, documentResultsOf, labelsOf, nearMissesOf, overallOf, percent, testSetOf, type DocumentResult, type Evaluation, type FieldError, type Reference, type Score } from './evaluation.ts';

export function EvaluationView({ model, reference }: { model: AiOut; reference: Reference | null }) {
  const e = model.evaluation;
  if (!e) {
    return (
      <p className="muted">
        Not evaluated: the {model.kind === 'extraction' ? 'category' : 'project'} had no test documents (dataset status “test”) when training ended. Mark
        reviewed documents as test documents to compare models.
      </p>
    );
  }
  const ref = reference?.evaluation ?? null;
  const docs = `${e.documents} test ${e.documents === 1 ? 'document' : 'documents'}`;
  const byValue = model.kind === 'extraction' ? byValueOf(e) : null;
  const testSet = model.kind === 'extraction' ? testSetOf(e) : null;
  return (
    <div className="evaluation">
      <p className="headline">
        <strong>
          {e.metric === 'accuracy' ? 'Accuracy' : 'F1'} {percent(e.score)}
        </strong>{' '}
        on {docs}
        {reference && (
          <span className="muted">
            {' '}
            · {reference.title}: {percent(reference.evaluation.score)}
          </span>
        )}
        {byValue && (
          <span className="by-value-headline" title={`By value: ${byValue.rule}`}>
            {' '}
            · by value {percent(byValue.overall.f1)} ({byValue.overall.true_positives} of {byValue.overall.true_positives + byValue.overall.false_negatives} values right)
          </span>
        )}
      </p>
      {testSet?.warning && (
        <p className="warning test-set-warning" role="status" title={testSet.rule}>
          {testSet.warning}
        </p>
      )}
      {model.kind === 'extraction' && <ExtractionDetails e={e} compared={ref} reference={reference} />}
      {model.kind === 'categorization' && <CategorizationDetails e={e} compared={ref} reference={reference} />}
      {model.kind === 'splitting' && <SplittingDetails e={e} compared={ref} reference={reference} />}
    </div>
  );
}

interface DetailProps {
  e: Evaluation;
  compared: Evaluation | null;
  reference: Reference | null;
}

function Overall({ score, nearMisses = null }: { score: Score | null; nearMisses?: number | null }) {
  if (!score) return null;
  return (
    <dl className="figures">
      <div>
        <dt>Precision</dt>
        <dd>{percent(score.precision)}</dd>
      </div>
      <div>
        <dt>Recall</dt>
        <dd>{percent(score.recall)}</dd>
      </div>
      <div>
        <dt>F1</dt>
        <dd>{percent(score.f1)}</dd>
      </div>
      <div>
        <dt>Found right / wrong / missed</dt>
        <dd>
          {score.true_positives} / {score.false_positives} / {score.false_negatives}
        </dd>
      </div>
      {nearMisses !== null && (
        <div title="wrong, but close to the expected text (counted among wrong and missed too)">
          <dt>Near misses</dt>
          <dd>{nearMisses}</dd>
        </div>
      )}
    </dl>
  );
}

function ExtractionDetails({ e, compared, reference }: DetailProps) {
  const labels = labelsOf(e);
  const refLabels = compared ? labelsOf(compared) : [];
  const rows: BarRow[] = labels.map((l) => ({ key: l.label, name: l.name, value: l.f1, reference: refLabels.find((r) => r.label === l.label)?.f1 ?? null }));
  const hasNear = labels.some((l) => typeof l.near_misses === 'number');
  const byValue = byValueOf(e);
  const valueOf = (label: number) => byValue?.labels.find((l) => l.label === label) ?? null;
  return (
    <>
      <h4 className="figures-title">By position (label, label set and characters exact; decides the active AI)</h4>
      <Overall score={overallOf(e)} nearMisses={nearMissesOf(e)} />
      {byValue && (
        <section aria-label="Scores by value">
          <h4 className="figures-title" title={byValue.rule}>
            By value (the same value anywhere in the document; dates and numbers normalized, white space collapsed)
          </h4>
          <Overall score={byValue.overall} />
        </section>
      )}
      {labels.length > 0 && <ScoreBars rows={rows} title="F1 per label" valueTitle="this AI" referenceTitle={reference?.title} />}
      {labels.length > 0 && (
        <table className="score-table" aria-label="Scores per label">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col" className="num">Precision</th>
              <th scope="col" className="num">Recall</th>
              <th scope="col" className="num">F1</th>
              <th scope="col" className="num" title="found right / found wrong / missed">Right / wrong / missed</th>
              {hasNear && (
                <th scope="col" className="num" title="wrong, but close to the expected text">
                  Near misses
                </th>
              )}
              {byValue && (
                <th scope="col" className="num" title={`By value: ${byValue.rule}`}>
                  F1 by value
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {labels.map((l) => (
              <tr key={l.label}>
                <th scope="row">{l.name}</th>
                <td className="num">{percent(l.precision)}</td>
                <td className="num">{percent(l.recall)}</td>
                <td className="num">{percent(l.f1)}</td>
                <td className="num">
                  {l.true_positives} / {l.false_positives} / {l.false_negatives}
                </td>
                {hasNear && <td className="num">{l.near_misses ?? '–'}</td>}
                {byValue && <td className="num">{valueOf(l.label) ? percent(valueOf(l.label)!.f1) : '–'}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <DocumentResults results={documentResultsOf(e)} rule={typeof e.near_miss_rule === 'string' ? e.near_miss_rule : null} />
    </>
  );
}

const KIND_TEXT: Record<FieldError['kind'], string> = { near_miss: 'near miss', wrong: 'wrong', missed: 'missed', extra: 'not expected' };

/** Per test document: right count and the wrong labels, expected beside found; documents with errors first,
 * each opens in review from its name. */
function DocumentResults({ results, rule }: { results: DocumentResult[]; rule: string | null }) {
  const [onlyWrong, setOnlyWrong] = useState(true);
  if (!results.length) return null;
  const wrong = results.filter((d) => d.errors.length);
  const shown = (onlyWrong ? wrong : results).slice().sort((a, b) => b.errors.length - a.errors.length || a.name.localeCompare(b.name));
  return (
    <section className="document-results" aria-label="Results per test document">
      <h4>
        Per document: {wrong.length} of {results.length} with a wrong label
      </h4>
      {rule && <p className="muted">Near miss: {rule}.</p>}
      <label className="only-wrong">
        <input type="checkbox" checked={onlyWrong} onChange={(ev) => setOnlyWrong(ev.target.checked)} /> only documents with a wrong label
      </label>
      <ul>
        {shown.map((d) => (
          <li key={d.document}>
            <details open={shown.length <= 5 && d.errors.length > 0}>
              <summary>
                <a href={routePath({ view: 'document', documentId: d.document, mode: 'review' })}>{d.name}</a>{' '}
                <span className="muted">
                  {d.right} right{typeof d.right_by_value === 'number' && d.right_by_value !== d.right ? ` (${d.right_by_value} by value)` : ''}
                  {d.near_misses ? `, ${d.near_misses} near ${d.near_misses === 1 ? 'miss' : 'misses'}` : ''}
                  {d.errors.length ? `, ${d.errors.length} wrong` : ''}
                </span>
              </summary>
              {d.errors.length > 0 && (
                <table className="score-table field-errors" aria-label={`Wrong labels of ${d.name}`}>
                  <thead>
                    <tr>
                      <th scope="col">Label</th>
                      <th scope="col">What</th>
                      <th scope="col">Expected</th>
                      <th scope="col">Found</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.errors.map((x, i) => (
                      <tr key={i} className={`error-${x.kind}`}>
                        <th scope="row">{x.name}</th>
                        <td>
                          {x.right_by_value ? (
                            'right value, other place'
                          ) : (
                            <>
                              {KIND_TEXT[x.kind]}
                              {x.kind === 'near_miss' && x.distance !== null ? ` (${x.distance} ${x.distance === 1 ? 'edit' : 'edits'})` : ''}
                            </>
                          )}
                        </td>
                        <td>{x.expected ?? '–'}</td>
                        <td>{x.found ?? '–'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CategorizationDetails({ e, compared, reference }: DetailProps) {
  const categories = categoriesOf(e);
  const refCategories = compared ? categoriesOf(compared) : [];
  const accuracy = (c: { correct: number; total: number }) => (c.total ? c.correct / c.total : 0);
  const rows: BarRow[] = categories.map((c) => {
    const r = refCategories.find((x) => x.category === c.category);
    return { key: c.category, name: c.name, value: accuracy(c), reference: r ? accuracy(r) : null };
  });
  if (!categories.length) return null;
  return (
    <>
      <ScoreBars rows={rows} title="Accuracy per category" valueTitle="this AI" referenceTitle={reference?.title} />
      <table className="score-table" aria-label="Accuracy per category">
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col" className="num">Right</th>
            <th scope="col" className="num">Of</th>
            <th scope="col" className="num">Accuracy</th>
          </tr>
        </thead>
        <tbody>
          {categories.map((c) => (
            <tr key={c.category}>
              <th scope="row">{c.name}</th>
              <td className="num">{c.correct}</td>
              <td className="num">{c.total}</td>
              <td className="num">{c.total ? percent(accuracy(c)) : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function SplittingDetails({ e, compared, reference }: DetailProps) {
  const score = overallOf(e);
  const refScore = compared ? overallOf(compared) : null;
  if (!score) return null;
  const rows: BarRow[] = (['precision', 'recall', 'f1'] as const).map((k) => ({ key: k, name: k === 'f1' ? 'F1' : k[0].toUpperCase() + k.slice(1), value: score[k], reference: refScore?.[k] ?? null }));
  return (
    <>
      <Overall score={score} />
      {typeof e.streams === 'number' && (
        <p className="muted">
          Split points scored on {e.streams} {e.streams === 1 ? 'stream' : 'streams'} of test documents laid end to end.
        </p>
      )}
      <ScoreBars rows={rows} title="Split points found" valueTitle="this AI" referenceTitle={reference?.title} />
    </>
  );
}
