// Imports a project folder (read.ts) as a new project, all or nothing: the files go into the blob store
// first (the store's rule: blobs before the rows that name them), then every row in ONE transaction: the
// project, its categories, label sets, labels, documents (status Done, their text and pages with the
// folder's own character boxes), annotation sets, annotations and missing annotations, and the record of
// the folder's fingerprint. When anything fails, the transaction leaves no row and the blobs it stored
// are removed again (unless another row already named the same bytes). Ids are the store's own; the report
// maps the folder's ids to them.
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import { referencedBlobKeys } from '../blobs/referenced.ts';
import type { UserRow } from '../store/schema.ts';
import { DocumentStatus } from '../domain/documentStatus.ts';
import { normalize } from '../domain/normalization.ts';
import { spanColumns } from '../domain/spans.ts';
import { UniqueViolation } from '../domain/errors.ts';
import { sniff } from '../pipeline/sniff.ts';
import { AlreadyImportedError } from './errors.ts';
import type { FolderFiles } from './files.ts';
import { readProjectFolder, type FolderDocument, type ProjectFolder } from './read.ts';
import { textPdf } from './textPdf.ts';

export interface ImportCounts {
  categories: number;
  label_sets: number;
  labels: number;
  documents: number;
  pages: number;
  characters: number;
  annotation_sets: number;
  annotations: number;
  missing_annotations: number;
  /** Documents whose own file the folder held (the others got a PDF drawn from their text and boxes). */
  original_files: number;
  page_images: number;
  /** Documents documents_meta.json5 lists without a folder of theirs: imported with blank pages, no text. */
  without_folder: number;
}

export interface ImportReport {
  project: { id: number; name: string };
  fingerprint: string;
  counts: ImportCounts;
  /** The folder's id -> the new id, per kind (JSON object keys are the folder's ids). */
  ids: {
    categories: Record<string, number>;
    label_sets: Record<string, number>;
    labels: Record<string, number>;
    documents: Record<string, number>;
    annotation_sets: Record<string, number>;
    annotations: Record<string, number>;
  };
}

export interface ImportDeps {
  repos: Repos;
  uow: UnitOfWork;
  blobs: BlobStore;
}

interface DocumentBlobs {
  original: { key: string; size: number };
  searchable: string;
  images: (string | null)[];
}

/** Test seam: runs inside the transaction after each document (a failure there must leave nothing). */
export type AfterDocumentHook = (folderId: number) => void | Promise<void>;

export async function importProjectFolder(deps: ImportDeps, files: FolderFiles, owner: UserRow, opts: { name?: string; afterDocument?: AfterDocumentHook } = {}): Promise<ImportReport> {
  const folder = readProjectFolder(files);
  const name = opts.name?.trim() || folder.name;
  await refuseAgain(deps.repos, folder.fingerprint);
  const stored: string[] = [];
  try {
    const blobs = new Map<number, DocumentBlobs>();
    for (const doc of folder.documents) blobs.set(doc.id, await storeFiles(deps.blobs, doc, stored));
    return await deps.uow((r) => writeRows(r, folder, name, files.label, owner, blobs, opts.afterDocument));
  } catch (err) {
    await release(deps, stored);
    if (err instanceof UniqueViolation && err.columns.includes('fingerprint')) await refuseAgain(deps.repos, folder.fingerprint);
    throw err;
  }
}

async function refuseAgain(repos: Repos, fingerprint: string): Promise<void> {
  const earlier = await repos.projectImports.findByFingerprint(fingerprint);
  if (earlier) throw new AlreadyImportedError(earlier.project_id, earlier.project_name, earlier.created_at);
}

async function release(deps: ImportDeps, keys: string[]): Promise<void> {
  if (!keys.length) return;
  const used = await referencedBlobKeys(deps.repos);
  for (const key of new Set(keys)) if (!used.has(key)) await deps.blobs.remove(key);
}

async function put(blobs: BlobStore, bytes: Uint8Array, stored: string[]) {
  const blob = await blobs.put(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  stored.push(blob.key);
  return blob;
}

async function storeFiles(blobs: BlobStore, doc: FolderDocument, stored: string[]): Promise<DocumentBlobs> {
  const images: (string | null)[] = [];
  for (const p of doc.pages) images.push(p.image ? (await put(blobs, p.image, stored)).key : null);
  if (doc.original) {
    const original = await put(blobs, doc.original, stored);
    const isPdf = sniff(doc.original).kind === 'pdf';
    const searchable = doc.searchable ? (await put(blobs, doc.searchable, stored)).key : isPdf ? original.key : (await put(blobs, await textPdf(doc.pages, doc.chars, doc.fileName), stored)).key;
    return { original, searchable, images };
  }
  // No file: the PDF drawn from the text and its boxes is the document's file and its searchable PDF.
  const drawn = await put(blobs, doc.searchable ?? (await textPdf(doc.pages, doc.chars, doc.fileName)), stored);
  return { original: drawn, searchable: drawn.key, images };
}

const labelSetKey = (id: number) => String(id);

async function writeRows(
  r: Repos,
  folder: ProjectFolder,
  name: string,
  source: string,
  owner: UserRow,
  blobs: Map<number, DocumentBlobs>,
  afterDocument?: AfterDocumentHook,
): Promise<ImportReport> {
  await refuseAgain(r, folder.fingerprint);
  // Rows are made in the order of the folder's ids, so the new ids keep their order: a folder exported,
  // imported and exported again lists everything in the same order (ids aside).
  const sorted = <T extends { id: number }>(rows: readonly T[]) => [...rows].sort((x, y) => x.id - y.id);
  const project = await r.projects.create(name, owner.id);
  const ids: ImportReport['ids'] = { categories: {}, label_sets: {}, labels: {}, documents: {}, annotation_sets: {}, annotations: {} };
  const counts: ImportCounts = {
    categories: 0, label_sets: 0, labels: 0, documents: 0, pages: 0, characters: 0,
    annotation_sets: 0, annotations: 0, missing_annotations: 0, original_files: 0, page_images: 0, without_folder: 0,
  };

  // A category and its default label set are one id in Folio, as in the folder.
  const categoryId = new Map<number, number>();
  const labelSetId = new Map<number, number>();
  for (const c of sorted(folder.categories)) {
    const row = await r.categories.create(project.id, c.name);
    categoryId.set(c.id, row.id);
    labelSetId.set(c.id, row.id);
    ids.categories[c.id] = row.id;
    counts.categories++;
  }
  for (const s of sorted(folder.labelSets)) {
    if (s.isDefault && categoryId.has(s.id)) {
      if (s.hasMultipleSections) await r.labelSets.update(labelSetId.get(s.id)!, { hasMultipleSections: true });
    } else {
      const row = await r.labelSets.insert({ projectId: project.id, name: s.name, hasMultipleSections: s.hasMultipleSections, isDefault: false });
      labelSetId.set(s.id, row.id);
      await r.labelSets.setCategories(row.id, s.categoryIds.map((c) => categoryId.get(c)!));
    }
    ids.label_sets[labelSetKey(s.id)] = labelSetId.get(s.id)!;
    counts.label_sets++;
  }
  const labelId = new Map<number, number>();
  const dataTypes = new Map<number, string>();
  for (const l of sorted(folder.labels)) {
    const row = await r.labels.insert(project.id, { name: l.name, dataType: l.dataType, description: l.description, threshold: l.threshold });
    labelId.set(l.id, row.id);
    dataTypes.set(l.id, l.dataType);
    ids.labels[l.id] = row.id;
    counts.labels++;
  }
  for (const s of folder.labelSets) await r.labelSets.setLabels(labelSetId.get(s.id)!, s.labelIds.map((l) => labelId.get(l)!));

  for (const doc of sorted(folder.documents)) {
    const files = blobs.get(doc.id)!;
    const t = new Date().toISOString();
    const row = await r.documents.insert({
      project_id: project.id,
      category_id: doc.categoryId === null ? null : categoryId.get(doc.categoryId)!,
      data_file_name: doc.fileName,
      blob_key: files.original.key,
      file_size: files.original.size,
      searchable_blob_key: files.searchable,
      status: DocumentStatus.DONE,
      status_reason: null,
      dataset_status: doc.datasetStatus,
      is_reviewed: doc.isReviewed,
      number_of_pages: doc.pages.length,
      text: doc.text,
      assignee_id: null,
      callback_url: null,
      created_by: owner.id,
      category_is_revised: doc.categoryIsRevised,
      created_at: doc.createdAt ?? doc.updatedAt ?? t,
      updated_at: doc.updatedAt ?? t,
    });
    ids.documents[doc.id] = row.id;
    counts.documents++;
    if (doc.original) counts.original_files++;
    if (!doc.hasFolder) counts.without_folder++;
    await r.pages.replaceForDocument(
      row.id,
      doc.pages.map((p, i) => ({
        number: p.number,
        widthPt: p.widthPt,
        heightPt: p.heightPt,
        rotation: 0,
        imageBlob: files.images[i],
        imageWidth: files.images[i] ? (p.imageSize?.[0] ?? null) : null,
        imageHeight: files.images[i] ? (p.imageSize?.[1] ?? null) : null,
        thumbnailBlob: null,
        hasTextLayer: true,
        ocr: false,
        chars: doc.chars.filter((c) => c.page_index === i),
      })),
    );
    counts.pages += doc.pages.length;
    counts.page_images += files.images.filter(Boolean).length;
    counts.characters += doc.chars.length;

    const setId = new Map<number, number>();
    for (const s of sorted(doc.annotationSets)) {
      const set = await r.annotations.createSet(row.id, labelSetId.get(s.labelSetId)!);
      setId.set(s.id, set.id);
      ids.annotation_sets[s.id] = set.id;
      counts.annotation_sets++;
    }
    for (const a of sorted(doc.annotations)) {
      const columns = { ...spanColumns(a.spans) };
      if (a.customOffsetString !== null) columns.custom_offset_string = a.customOffsetString;
      const id = await r.annotations.insertAnnotation({
        document_id: row.id,
        annotation_set_id: setId.get(a.annotationSetId)!,
        label_id: labelId.get(a.labelId)!,
        ...columns,
        normalized: normalize(columns.offset_string, dataTypes.get(a.labelId) as Parameters<typeof normalize>[1]),
        is_correct: a.isCorrect,
        revised: a.revised,
        confidence: a.confidence,
        origin: a.origin,
        is_typed: a.spans.every((s) => s.start_offset === null),
        created_by: a.origin === 'human' ? owner.id : null,
        revised_by: a.revised ? owner.id : null,
      });
      ids.annotations[a.id] = id;
      counts.annotations++;
    }
    for (const m of doc.missing) {
      await r.annotations.insertMissing({
        document_id: row.id,
        label_id: labelId.get(m.labelId)!,
        label_set_id: labelSetId.get(m.labelSetId)!,
        annotation_set_id: setId.get(m.annotationSetId)!,
        created_by: owner.id,
      });
      counts.missing_annotations++;
    }
    await afterDocument?.(doc.id);
  }
  await r.projectImports.insert({ project_id: project.id, fingerprint: folder.fingerprint, source, counts: { ...counts }, created_by: owner.id });
  return { project: { id: project.id, name: project.name }, fingerprint: folder.fingerprint, counts, ids };
}

