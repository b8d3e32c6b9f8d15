// Edit mode of a document (#/documents/<id>/edit): turn, re-order and split its pages, with the
// splitting AI's proposal for documents waiting in status 41; after Confirm, the documents it made.
import { useState } from 'react';
import type { DocumentOut } from '../../api/client.ts';
import { EDITABLE_STATUSES, RESTING_STATUSES, useEditDocument } from './useEditDocument.ts';
import { PageEditor } from './PageEditor.tsx';
import { EditResults } from './EditResults.tsx';
import { DocumentSetNav } from './DocumentSetNav.tsx';
import './edit.css';

export function EditMode({ documentId }: { documentId: number }) {
  const { data, error, reload } = useEditDocument(documentId);
  const [results, setResults] = useState<{ documentId: number; documents: DocumentOut[] } | null>(null);

  // Results stay on screen after the original is gone (a split removes it), until another document opens.
  const done = results?.documentId === documentId ? results.documents : null;

  if (done && data) {
    return (
      <main className="page page-wide">
        <h1>{data.document.data_file_name}</h1>
        <EditResults original={data.document} results={done} />
      </main>
    );
  }
  if (error) {
    return (
      <main className="page page-wide">
        <h1>Edit document</h1>
        <p className="error" role="alert">
          {error}
        </p>
        <button type="button" onClick={reload}>
          Try again
        </button>
      </main>
    );
  }
  if (!data) {
    return (
      <main className="page page-wide" aria-busy="true">
        <h1>Edit document</h1>
        <p className="muted">Loading pages…</p>
      </main>
    );
  }

  const { document } = data;
  const editable = EDITABLE_STATUSES.includes(document.status_data);
  return (
    <main className="page page-wide">
      <header className="edit-header">
        <h1>Edit {document.data_file_name}</h1>
        <a href={`#/documents/${document.id}`}>Back to review</a>
        <a href={`#/projects/${document.project}`}>Project documents</a>
      </header>
      {document.document_set !== null && <DocumentSetNav setId={document.document_set} currentId={document.id} mode="edit" />}
      {editable ? (
        // Keyed by the document's state: a new load (another document, new pages) starts a fresh edit.
        <PageEditor key={`${document.id}-${document.updated_at}`} data={data} onDone={(documents) => setResults({ documentId, documents })} />
      ) : (
        <p className="notice" role="status">
          {RESTING_STATUSES.includes(document.status_data)
            ? `This document cannot be edited: ${document.status_reason ?? document.status[1]}.`
            : `The document is “${document.status[1]}”. Edit mode opens when processing has finished.`}
        </p>
      )}
    </main>
  );
}
