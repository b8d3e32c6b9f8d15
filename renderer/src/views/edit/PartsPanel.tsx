// The resulting documents of an edit: per document its pages, a name and a category, and what the
// splitting AI proposed for it (category with confidence, how sure it was that a document starts there).
import type { CategoryOut } from '../../api/client.ts';
import type { Part, PartMeta } from './pageSequence.ts';

const percent = (v: number) => `${Math.round(v * 100)} %`;

/** The file name the API gives a part that is not named (postprocessService), shown as the placeholder. */
export function defaultPartName(fileName: string, index: number, count: number): string {
  const stem = fileName.replace(/\.[^.]*$/, '');
  return count > 1 ? `${stem} (${index + 1} of ${count}).pdf` : `${stem}.pdf`;
}

interface PartsPanelProps {
  parts: Part[];
  categories: CategoryOut[];
  fileName: string;
  disabled: boolean;
  onChange(key: string, changes: Partial<Pick<PartMeta, 'name' | 'category'>>): void;
}

export function PartsPanel({ parts, categories, fileName, disabled, onChange }: PartsPanelProps) {
  const categoryName = (id: number | null) => (id === null ? 'no category' : (categories.find((c) => c.id === id)?.name ?? `category ${id}`));
  return (
    <ol className="part-list" aria-label="Resulting documents">
      {parts.map((part, i) => {
        const { meta } = part;
        const id = `part-${meta.key}`;
        return (
          <li key={meta.key} className={`part-card part-c${i % 6}`}>
            <h3 className="part-title">
              Document {i + 1}
              <span className="muted">
                {' '}
                · {part.pages.length === 1 ? 'page' : 'pages'} {part.pages.map((p) => p.number).join(', ')}
              </span>
            </h3>
            {meta.proposal && (
              <p className="part-proposal">
                Proposed by the AI: {categoryName(meta.proposal.category)}
                {meta.proposal.categoryConfidence !== null && ` (${percent(meta.proposal.categoryConfidence)})`} · starts here: {percent(meta.proposal.confidence)}
              </p>
            )}
            <label htmlFor={`${id}-name`}>Name of document {i + 1}</label>
            <input
              id={`${id}-name`}
              value={meta.name}
              placeholder={defaultPartName(fileName, i, parts.length)}
              maxLength={255}
              disabled={disabled}
              onChange={(e) => onChange(meta.key, { name: e.target.value })}
            />
            <label htmlFor={`${id}-category`}>Category of document {i + 1}</label>
            <select
              id={`${id}-category`}
              value={String(meta.category)}
              disabled={disabled}
              onChange={(e) => onChange(meta.key, { category: e.target.value === 'auto' ? 'auto' : Number(e.target.value) })}
            >
              <option value="auto">Automatic (categorization AI)</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </li>
        );
      })}
    </ol>
  );
}
