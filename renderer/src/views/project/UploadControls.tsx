// Starting uploads: a file picker for several files, the category they get (none: the categorization
// AI decides), and the CSV export of the project beside them.
import { useRef } from 'react';
import type { CategoryOut } from '../../api/client.ts';

interface Props {
  categories: CategoryOut[];
  /** '' for automatic, else a category id. */
  category: string;
  onCategory(category: string): void;
  onFiles(files: File[]): void;
  exportUrl: string;
}

export function UploadControls({ categories, category, onCategory, onFiles, exportUrl }: Props) {
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
      <a className="button-link" href={exportUrl} download>
        Export CSV
      </a>
    </div>
  );
}
