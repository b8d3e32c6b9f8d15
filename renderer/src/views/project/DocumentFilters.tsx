// The filters of the document list (status, category, reviewed, dataset status, assignee) and the search
// in the documents' text and file names, which waits for a pause in typing before it asks the API.
import { useEffect, useState } from 'react';
import type { CategoryOut, MemberOut } from '../../api/client.ts';
import { DATASET_STATUS_NAMES, IN_PROGRESS_STATUSES, NO_FILTERS, type DocumentFilters as Filters } from '../../state/documents.ts';

const SEARCH_DELAY_MS = 250;

const STATUS_CHOICES: [string, string][] = [
  ['', 'Any status'],
  [IN_PROGRESS_STATUSES.join(','), 'Being processed'],
  ['41', 'Waiting for splitting confirmation'],
  ['2', 'Done'],
  ['111', 'Could not be processed'],
];

interface Props {
  filters: Filters;
  categories: CategoryOut[];
  members: MemberOut[];
  /** The signed-in user's email, for "Assigned to me". */
  me: string;
  onChange(changes: Partial<Filters>): void;
}

export function DocumentFilters({ filters, categories, members, me, onChange }: Props) {
  const [search, setSearch] = useState(filters.q);

  // The field follows the address when the filters are cleared or another project opens.
  useEffect(() => setSearch(filters.q), [filters.q]);

  useEffect(() => {
    if (search === filters.q) return;
    const timer = setTimeout(() => onChange({ q: search }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filters.q, onChange]);

  const any = Object.entries(filters).some(([k, v]) => v !== NO_FILTERS[k as keyof Filters]);
  return (
    <div className="filters" role="search" aria-label="Filter documents">
      <div className="field grow">
        <label htmlFor="doc-search">Search text and file names</label>
        <input id="doc-search" type="search" value={search} placeholder="e.g. invoice 2024" onChange={(e) => setSearch(e.target.value)} />
      </div>
      <Select id="doc-filter-status" label="Status" value={filters.status} onChange={(status) => onChange({ status })} choices={STATUS_CHOICES} />
      <Select
        id="doc-filter-category"
        label="Category"
        value={filters.category}
        onChange={(category) => onChange({ category })}
        choices={[['', 'Any category'], ['null', 'Without category'], ...categories.map((c): [string, string] => [String(c.id), c.name])]}
      />
      <Select
        id="doc-filter-reviewed"
        label="Reviewed"
        value={filters.is_reviewed}
        onChange={(v) => onChange({ is_reviewed: v as Filters['is_reviewed'] })}
        choices={[['', 'Either'], ['true', 'Reviewed'], ['false', 'Not reviewed']]}
      />
      <Select
        id="doc-filter-dataset"
        label="Dataset status"
        value={filters.dataset_status}
        onChange={(dataset_status) => onChange({ dataset_status })}
        choices={[['', 'Any'], ...DATASET_STATUS_NAMES.map((n, i): [string, string] => [String(i), n])]}
      />
      <Select
        id="doc-filter-assignee"
        label="Assignee"
        value={filters.assignee}
        onChange={(assignee) => onChange({ assignee })}
        choices={[
          ['', 'Anyone'],
          [me, 'Assigned to me'],
          ['null', 'Nobody'],
          ...members.filter((m) => m.email !== me).map((m): [string, string] => [m.email, m.email]),
        ]}
      />
      <button type="button" className="clear-filters" disabled={!any} onClick={() => onChange(NO_FILTERS)}>
        Clear filters
      </button>
    </div>
  );
}

function Select({ id, label, value, choices, onChange }: { id: string; label: string; value: string; choices: [string, string][]; onChange(v: string): void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {choices.map(([v, name]) => (
          <option key={v} value={v}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
