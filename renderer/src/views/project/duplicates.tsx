// Uploading a file the project already has: before anything is sent, each file's SHA-256 is compared with
// the project's documents (`content_hash`, the key of Folio's content-addressed storage), and the reviewer
// chooses to upload anyway or skip those files. Two copies of one file in the same drop count too.
import type { FolioClient } from '../../api/client.ts';

export interface Duplicate {
  file: File;
  /** Documents of the project with the same bytes, or the earlier file of this drop. */
  existing: { id: number | null; name: string }[];
}

async function sha256(file: File): Promise<string | null> {
  // crypto.subtle exists only in secure contexts (loopback and the app's own scheme are); elsewhere no check.
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function findDuplicates(client: FolioClient, projectId: number, files: File[]): Promise<Duplicate[]> {
  const out: Duplicate[] = [];
  const seen = new Map<string, File>();
  for (const file of files) {
    try {
      const hash = await sha256(file);
      if (!hash) continue;
      const existing: Duplicate['existing'] = [];
      const earlier = seen.get(hash);
      if (earlier) existing.push({ id: null, name: earlier.name });
      else seen.set(hash, file);
      const found = await client.documentsWithHash(projectId, hash);
      existing.push(...found.results.map((d) => ({ id: d.id, name: d.data_file_name })));
      if (existing.length) out.push({ file, existing });
    } catch {
      /* an unreadable file or a failed check: the upload itself will say what is wrong */
    }
  }
  return out;
}

export function DuplicateQuestion({ duplicates, onAnyway, onSkip }: { duplicates: Duplicate[]; onAnyway(): void; onSkip(): void }) {
  return (
    <div className="card duplicate-question" role="alertdialog" aria-labelledby="duplicate-title">
      <h2 id="duplicate-title">{duplicates.length === 1 ? 'This file is already in the project' : `${duplicates.length} files are already in the project`}</h2>
      <ul>
        {duplicates.map((d) => (
          <li key={d.file.name + d.file.size + d.file.lastModified}>
            <strong>{d.file.name}</strong> is the same file as{' '}
            {d.existing.map((e, i) => (
              <span key={`${e.id}-${i}`}>
                {i > 0 && ', '}
                {e.id === null ? `${e.name} in this upload` : <a href={`#/documents/${e.id}`}>{e.name}</a>}
              </span>
            ))}
          </li>
        ))}
      </ul>
      <button type="button" className="primary" autoFocus onClick={onSkip}>
        Skip {duplicates.length === 1 ? 'it' : 'them'}
      </button>
      <button type="button" onClick={onAnyway}>
        Upload anyway
      </button>
    </div>
  );
}
