// What a confirmed edit made: the new documents of one document set, each with its status as the
// pipeline processes it, links to review them, and the original file; or, for a rejected proposal, the
// document that goes on as it was.
import { useClient } from '../../state/session.ts';
import { documentStatusName } from '../../../../shared/documentStatus.ts';
import type { DocumentOut } from '../../api/client.ts';
import { useDocumentSet } from './useDocumentSet.ts';

export function EditResults({ original, results }: { original: DocumentOut; results: DocumentOut[] }) {
  const client = useClient();
  const keptWhole = results.length === 1 && results[0].id === original.id;
  const setId = keptWhole ? null : (results[0]?.document_set ?? null);
  const { set, error } = useDocumentSet(setId);
  const projectLink = <a href={`#/projects/${original.project}`}>Back to the project’s documents</a>;

  // Turned or re-ordered without a split: the same document, edited in place; its pages are read again.
  if (keptWhole && original.status_data === 2 && results[0].status_data !== 2) {
    return (
      <section className="edit-results" aria-labelledby="edit-results-title">
        <h2 id="edit-results-title">Pages saved</h2>
        <p>The document keeps its annotations and its review: boxes turned with their pages. Its pages are being read again as they now stand.</p>
        <p>
          <a href={`#/documents/${original.id}`}>Open {results[0].data_file_name}</a> · {projectLink}
        </p>
      </section>
    );
  }
  if (keptWhole) {
    return (
      <section className="edit-results" aria-labelledby="edit-results-title">
        <h2 id="edit-results-title">Kept as one document</h2>
        <p>
          {original.status_data === 41
            ? 'The proposal was rejected: the document goes on to categorization and extraction as it is.'
            : 'No page was moved, turned or split off: the document stays as it is.'}
        </p>
        <p>
          <a href={`#/documents/${original.id}`}>Open {results[0].data_file_name}</a> · {projectLink}
        </p>
      </section>
    );
  }
  // Until the set has loaded, the documents the API answered with (all still queued).
  const rows = set?.documents ?? results;
  return (
    <section className="edit-results" aria-labelledby="edit-results-title">
      <h2 id="edit-results-title">{results.length === 1 ? 'Saved as a new document' : `Split into ${results.length} documents`}</h2>
      <p className="muted">
        The new documents are processed like uploads; {original.data_file_name} made way for them
        {set && (
          <>
            {' '}
            (its <a href={client.fileUrl(set.original_file_url)}>original file</a> stays with the document set)
          </>
        )}
        .
      </p>
      <table className="set-table" aria-label="Documents of the set">
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col" className="num">
              Pages
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.id}>
              <td>
                <a href={`#/documents/${d.id}`}>{d.data_file_name}</a>
              </td>
              <td className="num">{d.number_of_pages || '…'}</td>
              <td>{documentStatusName(d.status_data)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p>{projectLink}</p>
    </section>
  );
}
