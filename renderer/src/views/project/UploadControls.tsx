// Starting uploads: a file picker for several files, the category they get (none: the categorization
// AI decides), and the project's exports beside them: the CSV with a row per annotation, and the table
// with a row per document as CSV or XLSX (README, Export) of the documents the list shows under its
// filters, of every value or of reviewed values only.
import { useRef } from 'react';
import type { CategoryOut } from '../../api/client.ts';

interface Props {
  categories: CategoryOut[];
  /** '' for automatic, else a category id. */
  category: string;
  onCategory(category: string): void;
  onFiles(files: File[]): void;
  exportUrls: ExportUrls;
  /** Whether the list is filtered (the per-document exports are of its documents). */
  filtered: boolean;
  /** The per-document exports hold only values a person checked. */
  reviewedOnly: boolean;
  onReviewedOnly(reviewedOnly: boolean): void;
}

export interface ExportUrls {
  annotations: string;
  documentsCsv: string;
  documentsXlsx: string;
}

export function UploadControls({ categories, category, onCategory, onFiles, exportUrls, filtered, reviewedOnly, onReviewedOnly }: Props) {
  const which = `${filtered ? 'the documents the filters show' : 'every document'}${reviewedOnly ? ', reviewed values only' : ''}`;
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="upload-controls">
      <button type="button" className="primary" onClick={() => input.current?.click()}>
        Upload files…
      </button>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        multiple
        aria-label="Choose files to upload"
        tabIndex={-1}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          // Cleared so that choosing the same file again uploads it again.
          e.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <label htmlFor="upload-category">Category for uploads</label>
      <select id="upload-category" value={category} onChange={(e) => onCategory(e.target.value)}>
        <option value="">Automatic</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <span className="muted drop-hint">or drop files anywhere here</span>
      <span className="spacer" />
      <span className="export-links" role="group" aria-label="Export">
        <a className="button-link" href={exportUrls.annotations} download title="Every annotation of the project, one row each, with its review state, page and box">
          Export CSV (per annotation)
        </a>
        <a className="button-link" href={exportUrls.documentsCsv} download title={`Of ${which}: one row per document, a column per label and its review state; each set of a repeating label set as a row of its own`}>
          Per-document CSV
        </a>
        <a className="button-link" href={exportUrls.documentsXlsx} download title={`Of ${which}: one row per document, a column per label and its review state; the repeating label sets on a second sheet`}>
          Per-document XLSX
        </a>
        <label className="reviewed-only" title="The per-document exports leave out values no person has accepted, corrected or made yet">
          <input type="checkbox" checked={reviewedOnly} onChange={(e) => onReviewedOnly(e.target.checked)} />
          Reviewed values only
        </label>
      </span>
    </div>
  );
}
