// Extraction through the HTTP API on the payslip project: train an extraction AI and wait for it, then
// read what Folio extracted from uploaded documents back in the dataset's terms (labels, label sets,
// offsets of document.txt) and score it with the extraction library's own evaluation.
import { evaluate, type MatchRule } from '../../main/ai/extraction/evaluate.ts';
import type { Evaluation, PredictedAnnotation } from '../../main/ai/extraction/types.ts';
import type { DatasetCategory, DatasetDocument } from '../fixtures/payslipDataset.ts';
import { alignDocument, type PayslipDocumentRef, type PayslipProject } from './payslipProject.ts';
import type { Client } from './testServer.ts';

const POLL_MS = 200;

/** POSTs an extraction AI for the Folio category and polls its record until it is done or failed. */
export async function trainExtractionAi(c: Client, category: number, timeoutMs = 300_000): Promise<any> {
  const created = await c.post('/api/v3/extraction-ais/', { category });
  if (created.status !== 201) throw new Error(`extraction AI for category ${category}: ${created.status} ${created.text}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await c.get(`/api/v3/extraction-ais/${created.body.id}/`);
    if (r.status !== 200) throw new Error(`extraction AI ${created.body.id}: ${r.status} ${r.text}`);
    if (r.body.status === 'done' || r.body.status === 'failed') return r.body;
    if (Date.now() > deadline) throw new Error(`extraction AI ${created.body.id} still "${r.body.status}" after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export interface ExtractedDocument {
  ref: PayslipDocumentRef;
  gold: DatasetDocument;
  /** Folio's annotations (API objects) of the document, from its detail. */
  annotations: any[];
  /** Folio's annotations in the dataset's terms: dataset label and label set ids, document.txt offsets. */
  predicted: PredictedAnnotation[];
  /** Dataset label set id -> how many annotation sets of it Folio made. */
  setsPerLabelSet: Map<number, number>;
  pages: number;
  /** Seconds, as the document detail reports it. */
  extractionTime: number | null;
}

const inverse = (m: Map<number, number>) => new Map([...m].map(([k, v]) => [v, k]));

/** The extraction results of uploaded documents (their detail's annotation sets) in dataset terms. */
export async function readExtractions(c: Client, p: PayslipProject, refs: readonly PayslipDocumentRef[], gold: readonly DatasetDocument[]): Promise<ExtractedDocument[]> {
  const labelOf = inverse(p.labels);
  const setOf = inverse(p.labelSets);
  const out: ExtractedDocument[] = [];
  for (const ref of refs) {
    const doc = gold.find((g) => g.id === ref.datasetId)!;
    const alignment = await alignDocument(c, ref.folioId, doc);
    const detail = (await c.get(`/api/v3/documents/${ref.folioId}/`)).body;
    const annotations: any[] = [];
    const predicted: PredictedAnnotation[] = [];
    const setsPerLabelSet = new Map<number, number>();
    for (const set of detail.annotation_sets as any[]) {
      if (set.id === null) continue; // a potential set: nothing extracted for it
      const labelSetId = setOf.get(set.label_set.id)!;
      const setIndex = setsPerLabelSet.get(labelSetId) ?? 0;
      setsPerLabelSet.set(labelSetId, setIndex + 1);
      for (const a of set.labels.flatMap((l: any) => l.annotations)) {
        annotations.push(a);
        // The range in document.txt: from the dataset twin of its first character to that of its last.
        const offsets = alignment.chars
          .filter((ch) => ch.offset >= a.start_offset && ch.offset < a.end_offset)
          .map((ch) => alignment.toDataset.get(ch.offset))
          .filter((o): o is number => o !== undefined);
        predicted.push({
          labelId: labelOf.get(a.label.id)!,
          labelSetId,
          setIndex,
          startOffset: offsets.length ? Math.min(...offsets) : -1,
          endOffset: offsets.length ? Math.max(...offsets) + 1 : -1,
          text: a.offset_string,
          confidence: a.confidence,
          spans: [], // scoring needs the range only
        });
      }
    }
    out.push({ ref, gold: doc, annotations, predicted, setsPerLabelSet, pages: detail.number_of_pages, extractionTime: detail.extraction_time });
  }
  return out;
}

/** Precision, recall and F1 per label and overall, as the library's bench scores its predictions. */
export function scoreExtractions(docs: readonly ExtractedDocument[], category: DatasetCategory, rule: MatchRule = 'exact'): Evaluation {
  return evaluate(docs.map((d) => ({ gold: d.gold.annotations, predicted: d.predicted })), category, rule);
}

/** How many annotation sets of each repeating label set the dataset has on a document. */
export function goldSetsPerLabelSet(doc: DatasetDocument): Map<number, number> {
  const keys = new Map<number, Set<string>>();
  for (const a of doc.annotations.filter((x) => x.correct)) keys.set(a.labelSetId, (keys.get(a.labelSetId) ?? new Set()).add(a.annotationSetKey));
  return new Map([...keys].map(([id, sets]) => [id, sets.size]));
}
