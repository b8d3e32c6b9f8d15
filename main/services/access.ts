// Who may reach what: every access rule of the services in one place (issue 11's roles, issue 13 item 4).
// The services ask here before they read or write; none decides access on its own.
//
// Roles. A project has owners and members (project_members.role); an instance has administrators
// (users.is_admin), who need not be members of anything.
// - Members (owners included) read and change a project's contents: upload, review, taxonomy, AIs and
//   their training, export, post-processing, reading again.
// - Owners and administrators also change the project itself: its settings, its members, its import
//   folders, its deletion. An administrator does so without being a member, but reading the project's
//   contents still takes membership, which an administrator can give themselves (POST members).
// - Public documents (is_public) are readable by anyone, signed in or not, through their public link: a
//   random token (migration 0015, publicDocument below) with an optional expiry, never by their id, so
//   that ids cannot be walked. The detail, its pages and page images (the public viewer). By id, a
//   public document is a document like any other: its project's members read it. Writing takes membership.
//
// Answers. What the caller may not know exists is a 404, worded as for an id that does not exist, so that
// ids of other projects reveal nothing; named in a request body, it is a 400 on that field, worded like
// any unknown id. A member asking for an owner's action gets a 403 that says who may do it (they know the
// project). An anonymous caller reaching for something not public gets a 401, also for ids that do not
// exist. Lists need no check here: the repositories list only what the caller's memberships reach (and
// every project for an administrator, projectService.list). Functions take the repositories to ask, so
// that a check can run inside a caller's transaction.
import type { Repos } from '../store/repositories/index.ts';
import type { ProjectRow, UserRow } from '../store/schema.ts';
import type { DocumentView } from '../store/repositories/documentRepository.ts';
import type { PageSummary } from '../store/repositories/pageRepository.ts';
import type { ProjectRole } from '../store/repositories/projectRepository.ts';
import { AuthenticationError, HttpError, NotFoundError, PermissionError, ValidationError } from '../domain/errors.ts';

const unknownPk = (id: number) => `Invalid pk "${id}" - object does not exist.`;

/** An instance administrator: every project in lists, every outbox message, an owner's rights anywhere. */
export function isAdministrator(user: UserRow): boolean {
  return Boolean(user.is_admin);
}

/** Whether `user` is a member (of any role) of the project; an administrator is not one by being one. */
export function isMember(repos: Repos, user: UserRow, projectId: number): Promise<boolean> {
  return repos.projects.isMember(projectId, user.id);
}

// --- projects ------------------------------------------------------------------------------------

/**
 * For a project's contents (documents, taxonomy, AIs, export): the project when `user` is a member,
 * else 404 "Project not found." (administrators included: they see contents as members).
 */
export async function projectForMember(repos: Repos, user: UserRow, id: number): Promise<ProjectRow> {
  const p = await repos.projects.findVisible(user.id, id);
  if (!p) throw new NotFoundError('Project not found.');
  return p;
}

/** The same for a project named in a request body: a 400 on `field`, worded like any unknown id. */
export async function projectForField(repos: Repos, user: UserRow, id: number, field = 'project'): Promise<ProjectRow> {
  const p = await repos.projects.findVisible(user.id, id);
  if (!p) throw ValidationError.of(field, unknownPk(id));
  return p;
}

/**
 * For the project itself and its member list: members and administrators see it, with the caller's role
 * (undefined for an administrator who is not a member); anyone else gets 404 "Project not found.".
 */
export async function projectForViewer(repos: Repos, user: UserRow, id: number): Promise<{ project: ProjectRow; role: ProjectRole | undefined }> {
  const project = await repos.projects.findById(id);
  const role = project ? await repos.projects.roleOf(id, user.id) : undefined;
  if (!project || (!role && !isAdministrator(user))) throw new NotFoundError('Project not found.');
  return { project, role };
}

/**
 * For what only an owner or an administrator may do (`action`: settings, members, import folders,
 * deletion). A stranger gets the 404 of projectForViewer; a member a 403 that says who may do it.
 */
export async function projectForOwner(repos: Repos, user: UserRow, id: number, action: string): Promise<ProjectRow> {
  const { project, role } = await projectForViewer(repos, user, id);
  if (role !== 'owner' && !isAdministrator(user)) {
    throw new PermissionError(`Only an owner of this project or an administrator can ${action}; you are a member.`);
  }
  return project;
}

// --- documents and other records of a project ----------------------------------------------------

/**
 * A document of one of the user's projects, to read or to change (both take membership, also for a
 * public document), else 404 "<what> not found.". `what` names the record the caller addressed when it
 * is reached through its document (an annotation, a missing annotation), so the 404 speaks of that.
 */
export async function documentForMember(repos: Repos, user: UserRow, id: number, what = 'Document'): Promise<DocumentView> {
  const doc = await repos.documents.findById(id);
  if (!doc || !(await isMember(repos, user, doc.project_id))) throw new NotFoundError(`${what} not found.`);
  return doc;
}

/** The same for a document named in a request body: a 400 on `field`, worded like any unknown id. */
export async function documentForField(repos: Repos, user: UserRow, id: number, field = 'document'): Promise<DocumentView> {
  const doc = await repos.documents.findById(id);
  if (!doc || !(await isMember(repos, user, doc.project_id))) throw ValidationError.of(field, unknownPk(id));
  return doc;
}

/**
 * A document to read by its id, for a caller who may be anonymous (the document detail, its pages, words,
 * boxes and page images): 401 without credentials (whether or not the id exists, and whether or not the
 * document is public: public documents are read through their link, publicDocument) and
 * documentForMember's 404 with them.
 */
export async function readableDocument(repos: Repos, user: UserRow | undefined, id: number): Promise<DocumentView> {
  if (!user) throw new AuthenticationError();
  const doc = await repos.documents.findById(id);
  if (!doc || !(await isMember(repos, user, doc.project_id))) throw new NotFoundError('Document not found.');
  return doc;
}

/** The public link's token: 32 base64url characters (24 random bytes). */
const PUBLIC_TOKEN = /^[A-Za-z0-9_-]{32}$/;

/**
 * A public document by the token of its public link, for anyone: 404 for a token that is not a current link
 * (never made, or the document was made private, or public again, which gave it a new token) and 410 once
 * the link's expiry has passed.
 */
export async function publicDocument(repos: Repos, token: string, now = Date.now()): Promise<DocumentView> {
  const doc = PUBLIC_TOKEN.test(token) ? await repos.documents.findByPublicToken(token) : undefined;
  if (!doc) {
    throw new NotFoundError('No public document has this link: it was never made, or the document was made private or shared with a new link since. Ask whoever shared it for the current link.');
  }
  if (doc.public_expires_at !== null && Date.parse(doc.public_expires_at) <= now) {
    throw new HttpError(410, `This public link expired at ${doc.public_expires_at}. Ask whoever shared it for a new link.`, { code: 'public_link_expired' });
  }
  return doc;
}

/**
 * A page (for its image or thumbnail) under its document's rule, readableDocument: an anonymous caller
 * gets the same 401 for a page that does not exist as for a page of a private document; a signed-in one
 * 404 "Page not found." for an unknown page.
 */
export async function readablePage(repos: Repos, user: UserRow | undefined, pageId: number): Promise<PageSummary> {
  const page = await repos.pages.findById(pageId);
  if (!page && !user) throw new AuthenticationError();
  if (!page) throw new NotFoundError('Page not found.');
  await readableDocument(repos, user, page.document_id);
  return page;
}

/**
 * A record of a project addressed by its own id (a category, label set, label, AI, document set): the
 * record when `user` is a member of its project; otherwise, or when there is no record, 404 "<what> not found.".
 */
export async function recordForMember<T extends { project_id: number }>(repos: Repos, user: UserRow, row: T | undefined, what: string): Promise<T> {
  if (!row || !(await isMember(repos, user, row.project_id))) throw new NotFoundError(`${what} not found.`);
  return row;
}

/** The same for a record named in a request body by `id`: a 400 on `field`, worded like any unknown id. */
export async function recordForField<T extends { project_id: number }>(repos: Repos, user: UserRow, row: T | undefined, field: string, id: number): Promise<T> {
  if (!row || !(await isMember(repos, user, row.project_id))) throw ValidationError.of(field, unknownPk(id));
  return row;
}
