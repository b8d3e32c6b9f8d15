// One page of the document list: a row per document with a checkbox for bulk actions, its thumbnail and
// file name (the link that opens it; a click anywhere else on the row does too), and in place the dataset
// status, category and assignee, which change at once. Column headers sort; a row's menu reads or extracts
// it again or deletes it. Paging at the foot.
import { documentStatusName } from '../../../../shared/documentStatus.ts';
import { useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { CategoryOut, DocumentItem, MemberOut } from '../../api/client.ts';
import { navigate } from '../../router.ts';
import { DATASET_STATUS_NAMES, PAGE_SIZE } from '../../state/documents.ts';
import { plural, type DocumentAction } from './documentActions.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** The sortable columns: header text and the API's ordering field. */
const COLUMNS: [string, string | null, string?][] = [
  ['File', 'data_file_name'],
  ['Status', 'status_data'],
  ['Category', 'category'],
  ['Reviewed', 'is_reviewed'],
  ['Assignee', 'assignee'],
  ['Dataset', 'dataset_status'],
  ['Pages', 'number_of_pages', 'num'],
  ['Uploaded', 'created_at'],
];

interface Props {
  items: DocumentItem[];
  count: number;
  offset: number;
  loading: boolean;
  categories: CategoryOut[];
  members: MemberOut[];
  ordering: string;
  selected: ReadonlySet<number>;
  fileUrl(path: string): string;
  onSelect(ids: number[], on: boolean): void;
  onOrdering(ordering: string): void;
  onOffset(offset: number): void;
  onAction(ids: number[], action: DocumentAction): void;
}

export function DocumentTable(props: Props) {
  const { items, count, offset, loading, categories, members, ordering, selected, fileUrl, onSelect, onOrdering, onOffset, onAction } = props;
  const last = Math.min(offset + items.length, count);
  const allOnPage = items.length > 0 && items.every((d) => selected.has(d.id));
  const someOnPage = items.some((d) => selected.has(d.id));
  const [sortField, descending] = ordering.startsWith('-') ? [ordering.slice(1), true] : [ordering, false];

  return (
    <>
      <div className="documents-scroll">
      <table className="documents" aria-busy={loading} aria-describedby="documents-range">
        <thead>
          <tr>
            <th scope="col" className="select">
              <input
                type="checkbox"
                aria-label="Select all documents on this page"
                checked={allOnPage}
                ref={(el) => {
                  if (el) el.indeterminate = someOnPage && !allOnPage;
                }}
                onChange={(e) => onSelect(items.map((d) => d.id), e.target.checked)}
              />
            </th>
            {COLUMNS.map(([name, field, cls]) => {
              const sorted = field === sortField;
              return (
                <th key={name} scope="col" className={cls} aria-sort={sorted ? (descending ? 'descending' : 'ascending') : undefined}>
                  <button
                    type="button"
                    className="sort"
                    title={`Sort by ${name.toLowerCase()}`}
                    // A first click sorts ascending (dates: newest first), the next reverses.
                    onClick={() => onOrdering(sorted ? (descending ? field! : `-${field}`) : field === 'created_at' ? `-${field}` : field!)}
                  >
                    {name}
                    <span aria-hidden="true" className="sort-mark">
                      {sorted ? (descending ? '▼' : '▲') : ''}
                    </span>
                  </button>
                </th>
              );
            })}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <Row key={d.id} d={d} checked={selected.has(d.id)} categories={categories} members={members} fileUrl={fileUrl} onSelect={onSelect} onAction={onAction} />
          ))}
        </tbody>
      </table>
      </div>
      <nav className="pager" aria-label="Pages of the document list">
        <span id="documents-range" className="muted">
          {count ? `${offset + 1}–${last} of ${plural(count, 'document')}` : ''}
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

interface RowProps {
  d: DocumentItem;
  checked: boolean;
  categories: CategoryOut[];
  members: MemberOut[];
  fileUrl(path: string): string;
  onSelect(ids: number[], on: boolean): void;
  onAction(ids: number[], action: DocumentAction): void;
}

function Row({ d, checked, categories, members, fileUrl, onSelect, onAction }: RowProps) {
  const name = d.data_file_name;
  // An assignee who has left the project is still shown, as an option of its own.
  const assignee = d.assignee_email;
  const assignees = assignee && !members.some((m) => m.email === assignee) ? [...members.map((m) => m.email), assignee] : members.map((m) => m.email);
  return (
    <tr
      className={`status-${d.status_data}${checked ? ' selected' : ''}`}
      // The link in the row is the keyboard's way in; the row click is a larger target for the mouse.
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest('a, button, input, select, label, .row-menu')) navigate({ view: 'document', documentId: d.id, mode: 'review' });
      }}
    >
      <td className="select">
        <input type="checkbox" aria-label={`Select ${name}`} checked={checked} onChange={(e) => onSelect([d.id], e.target.checked)} />
      </td>
      <td className="file">
        <div className="file-cell">
          {d.thumbnail_url ? <img className="thumb" src={fileUrl(d.thumbnail_url)} alt="" loading="lazy" /> : <span className="thumb" aria-hidden="true" />}
          {/* One line, cut with an ellipsis; the whole name is the tooltip. */}
          <a href={`#/documents/${d.id}`} title={name} className="file-name">
            {name}
          </a>
        </div>
      </td>
      <td>
        <span className="status-name">{documentStatusName(d.status_data)}</span>
        {d.status_data === 111 && d.status_reason && <span className="status-reason">{d.status_reason}</span>}
      </td>
      <td>
        <select aria-label={`Category of ${name}`} value={d.category ?? ''} onChange={(e) => onAction([d.id], { kind: 'category', value: e.target.value ? Number(e.target.value) : null })}>
          <option value="">None</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </td>
      <td>{d.is_reviewed ? 'Yes' : <span className="muted">No</span>}</td>
      <td>
        <select aria-label={`Assignee of ${name}`} value={d.assignee_email ?? ''} onChange={(e) => onAction([d.id], { kind: 'assignee', value: e.target.value || null })}>
          <option value="">Nobody</option>
          {assignees.map((email) => (
            <option key={email} value={email}>
              {email}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select aria-label={`Dataset status of ${name}`} value={d.dataset_status} onChange={(e) => onAction([d.id], { kind: 'dataset', value: Number(e.target.value) })}>
          {DATASET_STATUS_NAMES.map((n, i) => (
            <option key={n} value={i}>
              {n}
            </option>
          ))}
        </select>
      </td>
      <td className="num" title={plural(d.number_of_pages, 'page')}>
        {d.number_of_pages}
      </td>
      <td>
        <time dateTime={d.created_at}>{dateFormat.format(new Date(d.created_at))}</time>
      </td>
      <td className="row-actions">
        <RowMenu name={name} onAction={(a) => onAction([d.id], a)} />
      </td>
    </tr>
  );
}

/**
 * Where a row's menu opens: under its button, or above it when the window has no room below (the last
 * rows), right-aligned with the button. Viewport pixels (the menu is fixed, outside the table's scroller).
 */
export function menuPlace(button: { top: number; bottom: number; right: number }, menu: { width: number; height: number }, viewport: { width: number; height: number }) {
  const GAP = 4;
  const below = viewport.height - button.bottom - GAP;
  const up = below < menu.height && button.top - GAP > below;
  return { top: up ? Math.max(GAP, button.top - GAP - menu.height) : button.bottom + GAP, left: Math.max(GAP, Math.min(button.right - menu.width, viewport.width - menu.width - GAP)), up };
}

/**
 * A row's less frequent actions, behind one button so that the row stays short. Escape, a second click or a
 * click elsewhere closes it. The menu is drawn over the page (a portal), not inside the table's sideways
 * scroller, which would cut off the menus of its last rows; it follows its button when the page scrolls.
 */
function RowMenu({ name, onAction }: { name: string; onAction(action: DocumentAction): void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const pick = (action: DocumentAction) => {
    setOpen(false);
    onAction(action);
  };
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      if (!button.current || !menu.current) return;
      const at = menuPlace(button.current.getBoundingClientRect(), menu.current.getBoundingClientRect(), { width: window.innerWidth, height: window.innerHeight });
      Object.assign(menu.current.style, { top: `${at.top}px`, left: `${at.left}px`, visibility: 'visible' });
      menu.current.dataset.opens = at.up ? 'up' : 'down';
    };
    place();
    const close = (e: Event) => {
      if (menu.current?.contains(e.target as Node) || button.current?.contains(e.target as Node)) return;
      setOpen(false);
    };
    window.addEventListener('pointerdown', close, true);
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('pointerdown', close, true);
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open]);
  const closeOnEscape = (e: { key: string }) => {
    if (e.key !== 'Escape') return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="row-menu" onKeyDown={closeOnEscape}>
      <button ref={button} type="button" className="row-menu-button" aria-label={`Actions for ${name}`} aria-expanded={open} onClick={() => setOpen(!open)}>
        ⋯
      </button>
      {open && createPortal(
        // Outside the row: its clicks must not open the document (the row's own click), and keys still close it.
        <div ref={menu} className="row-menu-items" role="group" aria-label={`Actions for ${name}`} onKeyDown={closeOnEscape} onClick={(e) => e.stopPropagation()}>
          <button type="button" onClick={() => pick({ kind: 'read-again' })}>
            Read again
          </button>
          <button type="button" onClick={() => pick({ kind: 'extract-again' })}>
            Extract again
          </button>
          <button type="button" className="danger-quiet" onClick={() => pick({ kind: 'delete' })}>
            Delete…
          </button>
        </div>,
        document.body,
      )}
    </div>
  );
}
