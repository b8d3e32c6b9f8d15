// Everything the renderer asks of Folio, typed from the zod schemas in shared/schemas (imported as types
// only, so zod stays out of the bundle). One class over a Transport: HTTP in a browser, IPC in the
// desktop window. Views and stores call these methods, never fetch.
import type { z } from 'zod';
import type { Member, MemberCandidate, SignInMethods, TokenResponse, User, UserCreate, UserPatch } from '../../../shared/schemas/accounts.ts';
import type { envelope } from '../../../shared/schemas/common.ts';
import type { FileKey } from '../../../shared/signedFileUrls.ts';
import type { OcrEngineInfo } from '../../../shared/schemas/ocrEngine.ts';
import type { OcrLanguage, OcrModelInstalled, Project, ProjectCreate, ProjectPatch } from '../../../shared/schemas/projects.ts';
import type { Category, Label, LabelCreate, LabelPatch, LabelSet, LabelSetCreate, LabelSetPatch } from '../../../shared/schemas/taxonomy.ts';
import type { DocumentDetail, DocumentListItem, DocumentPatch, PublicLink } from '../../../shared/schemas/documents.ts';
import type { Annotation, AnnotationCreate, AnnotationPatch, MissingAnnotation, MissingAnnotationCreateItem } from '../../../shared/schemas/annotations.ts';
import type { BboxResponse, PageDetail, PageOut, SearchResponse, SpansResponse, Rect } from '../../../shared/schemas/geometry.ts';
import type { AiModel, AiPatch } from '../../../shared/schemas/ais.ts';
import type { DocumentSet, PostprocessDocument } from '../../../shared/schemas/postprocess.ts';
import type { ReadRegionRequest, ReadRegionResponse } from '../../../shared/schemas/readAgain.ts';
import type { BackupStatus } from '../../../shared/schemas/backup.ts';
import type { ImportFolder, ImportFolderCreate, ImportFolderPatch } from '../../../shared/schemas/importFolders.ts';
import type { ProjectFolderReport } from '../../../shared/schemas/projectFolders.ts';
import type { QueryValue, Transport } from './transport.ts';

export type Envelope<S extends z.ZodType> = z.infer<ReturnType<typeof envelope<S>>>;
export type UserOut = z.infer<typeof User>;
export type SignInMethodsOut = z.infer<typeof SignInMethods>;
export type ProjectOut = z.infer<typeof Project>;
export type MemberOut = z.infer<typeof Member>;
export type MemberCandidateOut = z.infer<typeof MemberCandidate>;
export type Role = MemberOut['role'];
export type ProjectInput = z.input<typeof ProjectCreate>;
export type CategoryOut = z.infer<typeof Category>;
export type LabelOut = z.infer<typeof Label>;
export type LabelSetOut = z.infer<typeof LabelSet>;
export type DocumentItem = z.infer<typeof DocumentListItem>;
export type DocumentOut = z.infer<typeof DocumentDetail>;
export type PublicLinkOut = z.infer<typeof PublicLink>;
export type AnnotationOut = z.infer<typeof Annotation>;
export type MissingOut = z.infer<typeof MissingAnnotation>;
export type PageSummary = z.infer<typeof PageOut>;
export type PageOutDetail = z.infer<typeof PageDetail>;
export type SpanOut = z.infer<typeof SpansResponse>['span'][number];
export type RectIn = z.input<typeof Rect>;
export type AiKind = 'extraction' | 'categorization' | 'splitting';
export type AiOut = z.infer<typeof AiModel>;
export type DocumentSetOut = z.infer<typeof DocumentSet>;
export type OcrLanguageOut = z.infer<typeof OcrLanguage>;
export type OcrModelInstalledOut = z.infer<typeof OcrModelInstalled>;
export type PostprocessInput = z.input<typeof PostprocessDocument>;
export type ImportFolderOut = z.infer<typeof ImportFolder>;

/** List conventions of every collection (README "Lists"), plus the collection's own filters. */
export type ListQuery = { limit?: number; offset?: number; ordering?: string } & Record<string, QueryValue>;

const AI_PATHS: Record<AiKind, string> = { extraction: '/api/v3/extraction-ais/', categorization: '/api/v3/category-ais/', splitting: '/api/v3/splitting-ais/' };

export class FolioClient {
  constructor(readonly transport: Transport) {}

  private get<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return this.transport.request<T>({ method: 'GET', path, query });
  }
  private send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return this.transport.request<T>({ method, path, body });
  }

  // --- accounts ----------------------------------------------------------------------------------
  async login(email: string, password: string): Promise<string> {
    return (await this.send<z.infer<typeof TokenResponse>>('POST', '/api/v3/auth/', { username: email, password })).token;
  }
  me = () => this.get<UserOut>('/api/v3/auth/me/');
  /** A key, valid for minutes, that file URLs are signed with instead of carrying the token (shared/signedFileUrls.ts). */
  fileKey = () => this.send<FileKey>('POST', '/api/v3/auth/file-key/');
  /** Whether passwords sign in here, and the single sign-on provider if there is one. */
  signInMethods = () => this.get<SignInMethodsOut>('/api/v3/auth/methods/');
  /** Deletes the account's token (scripts using it stop working); the next login makes a new one. */
  deleteToken = () => this.send<void>('DELETE', '/api/v3/auth/');

  // --- administration (users: administrators only; members: changes by owners and administrators) ---
  listUsers = () => this.get<Envelope<typeof User>>('/api/v3/users/', { limit: 1000 });
  createUser = (input: z.input<typeof UserCreate>) => this.send<UserOut>('POST', '/api/v3/users/', input);
  deleteUser = (id: number) => this.send<void>('DELETE', `/api/v3/users/${id}/`);
  updateUser = (id: number, changes: z.input<typeof UserPatch>) => this.send<UserOut>('PATCH', `/api/v3/users/${id}/`, changes);
  /** An administrator's reset of another account's password: that account's token is revoked. */
  resetPassword = (id: number, password: string) => this.send<UserOut>('POST', `/api/v3/users/${id}/password/`, { password });
  /** The caller's own new password; the answer's token replaces the old one, which stops working. */
  changePassword = (current: string, next: string) =>
    this.send<z.infer<typeof TokenResponse>>('POST', '/api/v3/auth/password/', { current_password: current, new_password: next });
  memberCandidates = (project: number) => this.get<Envelope<typeof MemberCandidate>>(`/api/v3/projects/${project}/member-candidates/`, { limit: 1000 });
  listMembers = (project: number) => this.get<Envelope<typeof Member>>(`/api/v3/projects/${project}/members/`, { limit: 1000 });
  addMember = (project: number, email: string, role: Role) => this.send<MemberOut>('POST', `/api/v3/projects/${project}/members/`, { email, role });
  setMemberRole = (project: number, userId: number, role: Role) => this.send<MemberOut>('PATCH', `/api/v3/projects/${project}/members/${userId}/`, { role });
  removeMember = (project: number, userId: number) => this.send<void>('DELETE', `/api/v3/projects/${project}/members/${userId}/`);

  // --- projects and taxonomy -----------------------------------------------------------------------
  listProjects = (q: ListQuery = {}) => this.get<Envelope<typeof Project>>('/api/v3/projects/', q);
  getProject = (id: number) => this.get<ProjectOut>(`/api/v3/projects/${id}/`);
  createProject = (input: ProjectInput) => this.send<ProjectOut>('POST', '/api/v3/projects/', input);
  /** A project folder in the SDK's layout, zipped, as a new project (docs/project-folders.md). */
  importProjectFolder(input: { file: Blob; fileName: string; onProgress?: (sent: number, total: number) => void }) {
    return this.transport.upload<z.infer<typeof ProjectFolderReport>>({ path: '/api/v3/projects/import/', fields: {}, fileField: 'file', file: input.file, fileName: input.fileName, onProgress: input.onProgress });
  }
  updateProject = (id: number, changes: z.input<typeof ProjectPatch>) => this.send<ProjectOut>('PATCH', `/api/v3/projects/${id}/`, changes);
  /** Every language of spec 2.16 (about 120; the list is paged like any other, so ask for all at once). */
  ocrLanguages = async (): Promise<OcrLanguageOut[]> => (await this.get<Envelope<typeof OcrLanguage>>('/api/v3/ocr-languages/', { limit: 1000 })).results;
  /** An administrator adds a tesseract model (`<code>.traineddata`): checked, stored in the data folder, usable at once. */
  addOcrModel = (file: Blob, fileName: string) =>
    this.transport.upload<OcrModelInstalledOut>({ path: '/api/v3/ocr-languages/', fields: {}, fileField: 'file', file, fileName });
  backupStatus = () => this.get<BackupStatus>('/api/v3/backup/');
  /** A project's watched import folders (owners and administrators; a Folio addition). */
  listImportFolders = async (project: number) => (await this.get<Envelope<typeof ImportFolder>>(`/api/v3/projects/${project}/import-folders/`, { limit: 1000 })).results;
  createImportFolder = (project: number, input: z.input<typeof ImportFolderCreate>) => this.send<ImportFolderOut>('POST', `/api/v3/projects/${project}/import-folders/`, input);
  updateImportFolder = (project: number, id: number, changes: z.input<typeof ImportFolderPatch>) =>
    this.send<ImportFolderOut>('PATCH', `/api/v3/projects/${project}/import-folders/${id}/`, changes);
  deleteImportFolder = (project: number, id: number) => this.send<void>('DELETE', `/api/v3/projects/${project}/import-folders/${id}/`);

  listCategories = (project: number) => this.get<Envelope<typeof Category>>('/api/v3/categories/', { project, limit: 1000 });
  createCategory = (project: number, name: string) => this.send<CategoryOut>('POST', '/api/v3/categories/', { project, name });
  renameCategory = (id: number, name: string) => this.send<CategoryOut>('PATCH', `/api/v3/categories/${id}/`, { name });
  deleteCategory = (id: number) => this.send<void>('DELETE', `/api/v3/categories/${id}/`);

  listLabels = (project: number) => this.get<Envelope<typeof Label>>('/api/v3/labels/', { project, limit: 1000 });
  createLabel = (input: z.input<typeof LabelCreate>) => this.send<LabelOut>('POST', '/api/v3/labels/', input);
  updateLabel = (id: number, changes: z.input<typeof LabelPatch>) => this.send<LabelOut>('PATCH', `/api/v3/labels/${id}/`, changes);
  deleteLabel = (id: number) => this.send<void>('DELETE', `/api/v3/labels/${id}/`);

  listLabelSets = (project: number) => this.get<Envelope<typeof LabelSet>>('/api/v3/label-sets/', { project, limit: 1000 });
  createLabelSet = (input: z.input<typeof LabelSetCreate>) => this.send<LabelSetOut>('POST', '/api/v3/label-sets/', input);
  updateLabelSet = (id: number, changes: z.input<typeof LabelSetPatch>) => this.send<LabelSetOut>('PATCH', `/api/v3/label-sets/${id}/`, changes);
  deleteLabelSet = (id: number) => this.send<void>('DELETE', `/api/v3/label-sets/${id}/`);

  // --- documents ---------------------------------------------------------------------------------
  listDocuments = (q: ListQuery) => this.get<Envelope<typeof DocumentListItem>>('/api/v3/documents/', q);
  getDocument = (id: number) => this.get<DocumentOut>(`/api/v3/documents/${id}/`);
  /** A public document by its link's token (GET /api/v3/public/<token>/), for anyone. */
  getPublicDocument = (token: string) => this.get<DocumentOut>(`/api/v3/public/${encodeURIComponent(token)}/`);
  /** A new public link for the document (the old one stops working). */
  newPublicLink = (id: number, expiresAt: string | null) => this.send<PublicLinkOut>('POST', `/api/v3/documents/${id}/public-link/`, { expires_at: expiresAt });
  /** A file the API names by its path (a public document's page image URLs carry its link's token). */
  fileAt = (path: string) => this.transport.fileUrl(path);
  updateDocument = (id: number, changes: z.input<typeof DocumentPatch>) => this.send<DocumentOut>('PATCH', `/api/v3/documents/${id}/`, changes);
  deleteDocument = (id: number) => this.send<void>('DELETE', `/api/v3/documents/${id}/`);
  uploadDocument(input: { project: number; category?: number | null; file: Blob; fileName: string; onProgress?: (sent: number, total: number) => void; signal?: AbortSignal }) {
    return this.transport.upload<DocumentOut>({
      path: '/api/v3/documents/',
      fields: { project: input.project, category: input.category ?? undefined },
      fileField: 'data_file',
      file: input.file,
      fileName: input.fileName,
      onProgress: input.onProgress,
      signal: input.signal,
    });
  }
  /** Every page of a document in order. The API pages this list (at most 1,000 a call), so follow it to the end. */
  listPages = async (document: number): Promise<PageSummary[]> => {
    const pages: PageSummary[] = [];
    for (;;) {
      const page = await this.get<Envelope<typeof PageOut>>(`/api/v3/documents/${document}/pages/`, { limit: 1000, offset: pages.length });
      pages.push(...page.results);
      if (!page.results.length || pages.length >= page.count) return pages;
    }
  };
  getPage = (document: number, number: number) => this.get<PageOutDetail>(`/api/v3/documents/${document}/pages/${number}/`);
  charBoxes = (document: number) => this.get<z.infer<typeof BboxResponse>>(`/api/v3/documents/${document}/bbox/`);
  /** The text fully inside each rectangle, as spans (one per line). */
  spansIn = async (document: number, rects: RectIn[]) => (await this.send<z.infer<typeof SpansResponse>>('POST', `/api/v3/documents/${document}/bbox/`, { span: rects })).span;
  search = async (document: number, q: string) => (await this.send<z.infer<typeof SearchResponse>>('POST', `/api/v3/documents/${document}/search/`, { q })).span;
  /** Every occurrence of `q`, each as its spans (one per line: a value over several lines is one hit). */
  searchHits = async (document: number, q: string) => (await this.send<z.infer<typeof SearchResponse>>('POST', `/api/v3/documents/${document}/search/`, { q })).hits;
  postprocess = (document: number, outputs: PostprocessInput[]) => this.send<DocumentOut[]>('POST', `/api/v3/documents/${document}/postprocess/`, outputs);
  /** Reads the whole document again (a job: the document goes back through processing). */
  /** A reviewer opened a document that is still waiting: its queued steps go ahead of every batch. */
  prioritize = (document: number) => this.send<DocumentOut>('POST', `/api/v3/documents/${document}/prioritize/`, {});
  /** A document that could not be processed (111) queued for processing again. */
  retryProcessing = (document: number) => this.send<DocumentOut>('POST', `/api/v3/documents/${document}/retry/`);
  readAgain = (document: number, ocrLanguages?: string[]) => this.send<DocumentOut>('POST', `/api/v3/documents/${document}/read-again/`, ocrLanguages ? { ocr_languages: ocrLanguages } : {});
  /** Runs the category's active extraction AI on the document again (a job, like after processing). */
  extractAgain = (document: number) => this.send<DocumentOut>('POST', `/api/v3/documents/${document}/extract-again/`, {});
  /** The project's documents whose uploaded file has this SHA-256 (earlier uploads of the same bytes). */
  documentsWithHash = (project: number, hash: string) =>
    this.get<Envelope<typeof DocumentListItem>>('/api/v3/documents/', { project, content_hash: hash, fields: 'id,data_file_name', limit: 10 });
  /** Reads one drawn region again at a higher resolution; found text joins the document text. */
  readRegion = (document: number, region: z.input<typeof ReadRegionRequest>) =>
    this.send<z.infer<typeof ReadRegionResponse>>('POST', `/api/v3/documents/${document}/read-region/`, region);
  /** The OCR engine in use and its version, and the engines this machine has. */
  ocrEngine = () => this.get<OcrEngineInfo>('/api/v3/ocr-engine/');
  getDocumentSet = (id: number) => this.get<DocumentSetOut>(`/api/v3/document-sets/${id}/`, { expand: 'documents' });
  /** Files the page loads directly (images, PDFs, the CSV export). */
  searchablePdfUrl = (document: number) => this.transport.fileUrl(`/doc/show/${document}/`);
  pageImageUrl = (pageId: number) => this.transport.fileUrl(`/page/show-image/${pageId}/`);
  thumbnailUrl = (pageId: number) => this.transport.fileUrl(`/page/show-thumbnail/${pageId}/`);
  exportCsvUrl = (project: number) => this.transport.fileUrl(`/api/v3/projects/${project}/export/all.csv`);
  /** The per-document table (one row per document, a column per label) as CSV or XLSX; `query` takes the document list's filters and ordering. */
  exportDocumentsUrl = (project: number, format: 'csv' | 'xlsx', query = '') =>
    this.transport.fileUrl(`/api/v3/projects/${project}/export/documents.${format}${query ? `?${query}` : ''}`);
  /** A file path a record names (an AI's `file_url`, a document set's `original_file_url`), loadable by the page. */
  fileUrl = (path: string) => this.transport.fileUrl(path);

  // --- annotations -------------------------------------------------------------------------------
  createAnnotation = (input: z.input<typeof AnnotationCreate>) => this.send<AnnotationOut>('POST', '/api/v3/annotations/', input);
  updateAnnotation = (id: number, changes: z.input<typeof AnnotationPatch>) => this.send<AnnotationOut>('PATCH', `/api/v3/annotations/${id}/`, changes);
  deleteAnnotation = (id: number) => this.send<void>('DELETE', `/api/v3/annotations/${id}/`);
  reviewAnnotations = (document: number, ids: number[], isCorrect: boolean, revised = true) =>
    this.send<AnnotationOut[]>('PATCH', `/api/v3/documents/${document}/update-annotations/`, { ids, is_correct: isCorrect, revised });
  createMissing = (input: MissingAnnotationCreateItem) => this.send<MissingOut>('POST', '/api/v3/missing-annotations/', input);
  deleteMissing = (id: number) => this.send<void>('DELETE', `/api/v3/missing-annotations/${id}/`);

  // --- AIs ---------------------------------------------------------------------------------------
  listAis = (kind: AiKind, project: number) => this.get<Envelope<typeof AiModel>>(AI_PATHS[kind], { project_id: project, ordering: '-id', limit: 100 });
  getAi = (kind: AiKind, id: number) => this.get<AiOut>(`${AI_PATHS[kind]}${id}/`);
  /** Extraction AIs train for a category, the other kinds for a project. */
  trainAi = (kind: AiKind, scope: { category?: number; project?: number }) => this.send<AiOut>('POST', AI_PATHS[kind], scope);
  updateAi = (kind: AiKind, id: number, changes: z.input<typeof AiPatch>) => this.send<AiOut>('PATCH', `${AI_PATHS[kind]}${id}/`, changes);
}
