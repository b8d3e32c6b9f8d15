// The texts of Folio's emails (spec 6 rule 5): plain text and HTML of each, with links back to this
// installation. Kept apart from the mailer so that wording changes touch nothing else.

/** Spread into `Mailer.send` together with `to`, `kind` and `documentId`. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Names end up in a subject line: one line, not endless. */
const oneLine = (s: string, max = 120) => {
  const flat = s.replace(/[\r\n\t]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A page of the app on this installation (`baseUrl` as the server reports it, e.g. http://127.0.0.1:8427). */
export function appLink(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export const documentLink = (baseUrl: string, documentId: number) => appLink(baseUrl, `documents/${documentId}`);

function compose(subject: string, paragraphs: string[], link: { label: string; url: string }): MailContent {
  const text = [...paragraphs, `${link.label}: ${link.url}`, '-- \nFolio'].join('\n\n');
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    '<p style="color:#666">-- <br>Folio</p>',
  ].join('\n');
  return { subject, text, html };
}

export interface UploadNotice {
  baseUrl: string;
  documentId: number;
  fileName: string;
  projectName: string;
  /** Who uploaded it (email or name), when known. */
  uploadedBy?: string | null;
}

/** To the assignee named at upload (spec 2.5 `assignee`). */
export function uploadNotification(n: UploadNotice): MailContent {
  const who = n.uploadedBy ? oneLine(n.uploadedBy) : 'Someone';
  return compose(
    `New document for you: ${oneLine(n.fileName)} (${oneLine(n.projectName, 60)})`,
    [`${who} uploaded "${oneLine(n.fileName, 255)}" to the project "${oneLine(n.projectName, 255)}" and assigned it to you.`],
    { label: 'Open the document', url: documentLink(n.baseUrl, n.documentId) },
  );
}

export interface TrainingNotice {
  baseUrl: string;
  aiId: number;
  /** Which AI: extraction (default), categorization or splitting. */
  kind?: 'extraction' | 'categorization' | 'splitting';
  /** The category of an extraction AI; the others belong to the whole project. */
  categoryName: string | null;
  projectName: string;
  succeeded: boolean;
  /** Whether the new model took over (it does only when it evaluates better than the active one). */
  active?: boolean;
  /** Why training failed (shown when it did). */
  reason?: string | null;
}

const AI_PATHS = { extraction: 'extraction-ais', categorization: 'category-ais', splitting: 'splitting-ais' } as const;

/** To the user who asked for an AI, once its training has ended either way. */
export function trainingCompleted(n: TrainingNotice): MailContent {
  const kind = n.kind ?? 'extraction';
  const title = `${kind[0].toUpperCase()}${kind.slice(1)} AI`;
  const scope = n.categoryName === null ? `the project "${oneLine(n.projectName, 255)}"` : `the category "${oneLine(n.categoryName, 255)}" of the project "${oneLine(n.projectName, 255)}"`;
  const what = `the ${kind} AI #${n.aiId} for ${scope}`;
  const uses = {
    extraction: 'Documents uploaded to this category from now on are extracted with it.',
    categorization: 'Documents uploaded without a category from now on are categorized with it.',
    splitting: 'Multi-page documents uploaded from now on are checked with it for where to split them.',
  }[kind];
  const outcome = n.active === false ? 'It did not evaluate better than the active AI, which stays in use; you can still download the new one.' : uses;
  const paragraphs = n.succeeded
    ? [`Training of ${what} has finished.`, outcome]
    : [`Training of ${what} has failed.`, ...(n.reason ? [`Reason: ${oneLine(n.reason, 1000)}`] : [])];
  const name = oneLine(n.categoryName ?? n.projectName, 80);
  return compose(
    `${n.succeeded ? `${title} ready` : `${title} training failed`}: ${name}${n.categoryName === null ? '' : ` (${oneLine(n.projectName, 60)})`}`,
    paragraphs,
    { label: `Open the ${kind} AI`, url: appLink(n.baseUrl, `${AI_PATHS[kind]}/${n.aiId}`) },
  );
}
