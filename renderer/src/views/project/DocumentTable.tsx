// One page of the document list: a row per document (its file name is the link that opens it; a click
// anywhere on the row does too), the reason beside documents that could not be processed, and paging.
import type { CategoryOut, DocumentItem } from '../../api/client.ts';
import { navigate } from '../../router.ts';
import { DATASET_STATUS_NAMES, PAGE_SIZE } from '../../state/documents.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface Props {
  items: DocumentItem[];
  count: number;
  offset: number;
  loading: boolean;
  categories: CategoryOut[];
  onOffset(offset: number): void;
}

export function DocumentTable({ items, count, offset, loading, categories, onOffset }: Props) {
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  const last = Math.min(offset + items.length, count);
  return (
    <>
      <table className="documents" aria-busy={loading} aria-describedby="documents-range">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Status</th>
            <th scope="col">Category</th>
            <th scope="col">Reviewed</th>
            <th scope="col">Assignee</th>
            <th scope="col">Dataset</th>
            <th scope="col" className="num">
              Pages
            </th>
            <th scope="col">Uploaded</th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <tr
              key={d.id}
              className={`status-${d.status_data}`}
              // The link in the row is the keyboard's way in; the row click is a larger target for the mouse.
              onClick={(e) => {
                if (!(e.target as HTMLElement).closest('a, button')) navigate({ view: 'document', documentId: d.id, mode: 'review' });
              }}
            >
              <td className="file">
                <a href={`#/documents/${d.id}`}>{d.data_file_name}</a>
              </td>
              <td>
                <span className="status-name">{d.status[1]}</span>
                {d.status_data === 111 && d.status_reason && <span className="status-reason">{d.status_reason}</span>}
              </td>
              <td>{d.category === null ? <span className="muted">None</span> : (categoryName.get(d.category) ?? `#${d.category}`)}</td>
              <td>{d.is_reviewed ? 'Yes' : <span className="muted">No</span>}</td>
              <td>{d.assignee ?? <span className="muted">Nobody</span>}</td>
              <td>{DATASET_STATUS_NAMES[d.dataset_status] ?? d.dataset_status}</td>
              <td className="num">{d.number_of_pages}</td>
              <td>
                <time dateTime={d.created_at}>{dateFormat.format(new Date(d.created_at))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="pager" aria-label="Pages of the document list">
        <span id="documents-range" className="muted">
          {count ? `${offset + 1}–${last} of ${count}` : ''}
        </span>
        <button type="button" disabled={offset === 0} onClick={() => onOffset(offset - PAGE_SIZE)}>
          Previous
        </button>
        <button type="button" disabled={offset + PAGE_SIZE >= count} onClick={() => onOffset(offset + PAGE_SIZE)}>
          Next
        </button>
      </nav>
    </>
  );
}
