// Writes a project as a project folder in the SDK's layout (the one Project(id_, update=True) writes:
// categories_and_label_data.json5, documents_meta.json5, documents/<id>/...), so the SDK reads a Folio
// project offline (Project(id_=None, project_folder=...)) and Folio imports it again (read.ts). The JSON
// is written as the SDK writes it (json.dump, indent 2, sorted keys); lists are in id order, so two exports
// of the same data are the same bytes but for the ids.
import type { Repos } from '../store/repositories/index.ts';
import type { BlobStore } from '../blobs/blobStore.ts';
import type { DocumentRow } from '../store/schema.ts';
import type { CharBox } from '../domain/geometry.ts';
import { statusName } from '../domain/documentStatus.ts';
import { writeZip } from '../domain/zip.ts';
import { MISSING_FILE, PROJECT_FILE } from './read.ts';
import { sdkFileName } from './sdkNames.ts';

export interface FolderEntry {
  /** Relative path, forward slashes. */
  name: string;
  data: Buffer;
}

export interface ExportCounts {
  categories: number;
  label_sets: number;
  labels: number;
  documents: number;
  annotations: number;
  missing_annotations: number;
}

/** Python's json.dumps(value, indent=2, sort_keys=True), as the SDK writes its files. */
export function sdkJson(value: unknown): Buffer {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
    return v;
  };
  return Buffer.from(JSON.stringify(sortKeys(value), null, 2), 'utf8');
}

const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);

/** Every file of the project's folder, in a stable order. */
export async function projectFolderEntries(repos: Repos, blobs: BlobStore, projectId: number): Promise<{ entries: FolderEntry[]; counts: ExportCounts }> {
  const project = (await repos.projects.findById(projectId))!;
  const categories = byId(await repos.categories.inProject(projectId));
  const setNames = await repos.labelSets.names(projectId);
  const labelSets = byId(await repos.labelSets.findByIds(setNames.map((s) => s.id)));
  const labelNames = await repos.labels.names(projectId);
  const labels = new Map((await repos.labels.findByIds(labelNames.map((l) => l.id))).map((l) => [l.id, l]));
  const entries: FolderEntry[] = [];
  const counts: ExportCounts = { categories: categories.length, label_sets: labelSets.length, labels: labels.size, documents: 0, annotations: 0, missing_annotations: 0 };

  entries.push({ name: PROJECT_FILE, data: sdkJson({ id: project.id, name: project.name, ocr_languages: project.ocr_languages }) });
  const labelOut = (id: number) => {
    const l = labels.get(id)!;
    // Never `text`, `project` or `label_sets`: the SDK passes these dicts as keywords beside its own (issue 31).
    return { id: l.id, name: l.name, api_name: l.name, get_data_type_display: l.data_type, data_type: l.data_type, description: l.description, threshold: l.threshold, has_multiple_top_candidates: false };
  };
  entries.push({
    name: 'categories_and_label_data.json5',
    data: sdkJson(
      categories.map((c) => ({
        id: c.id,
        name: c.name,
        api_name: c.name,
        // The category's default label set first (its id is the category's), then the others in id order.
        schema: labelSets
          .filter((s) => s.category_ids.includes(c.id))
          .sort((a, b) => (a.id === c.id ? -1 : b.id === c.id ? 1 : a.id - b.id))
          .map((s) => ({
            id: s.id,
            name: s.name,
            api_name: s.name,
            is_default: s.id === c.id,
            has_multiple_annotation_sets: s.has_multiple_sections,
            has_multiple_sections: s.has_multiple_sections,
            labels: [...s.label_ids].sort((a, b) => a - b).map(labelOut),
          })),
      })),
    ),
  });

  const documents = await repos.documents.ofProject(projectId);
  entries.push({ name: 'documents_meta.json5', data: sdkJson(documents.map(documentMeta)) });
  const labelSetName = new Map(labelSets.map((s) => [s.id, s.name]));
  for (const doc of documents) {
    const dir = `documents/${doc.id}`;
    counts.documents++;
    const pages = await repos.pages.listForDocument(doc.id);
    const { chars } = await repos.pages.charsForDocument(doc.id);
    entries.push({ name: `${dir}/document.txt`, data: Buffer.from(doc.text ?? '', 'utf8') });
    entries.push({
      name: `${dir}/pages.json5`,
      data: sdkJson(pages.map((p) => ({ id: p.id, image: p.image_blob ? `/page/show-image/${p.id}/` : null, number: p.number, original_size: [p.width_pt, p.height_pt], size: p.image_width && p.image_height ? [p.image_width, p.image_height] : imageSizeOf(p.width_pt, p.height_pt) }))),
    });
    entries.push({ name: `${dir}/bbox.zip`, data: writeZip([{ name: 'bbox.json5', data: sdkJson(bboxOf(chars)) }], { modified: new Date(Date.UTC(1980, 0, 1, 12)) }) });
    const sets = byId(await repos.annotations.setsOfDocument(doc.id));
    const position = new Map<number, number>();
    entries.push({
      name: `${dir}/annotation_sets.json5`,
      data: sdkJson(
        sets.map((s) => {
          const n = (position.get(s.label_set_id) ?? 0) + 1;
          position.set(s.label_set_id, n);
          return { id: s.id, parent: null, position: n, section_label: s.label_set_id };
        }),
      ),
    });
    const annotations = byId(await repos.annotations.annotationsOfDocument(doc.id));
    counts.annotations += annotations.length;
    entries.push({
      name: `${dir}/annotations.json5`,
      data: sdkJson(
        annotations.map((a) => {
          const label = labels.get(a.label_id)!;
          return {
            id: a.id,
            label: a.label_id,
            label_text: label.name,
            label_data_type: label.data_type,
            label_threshold: label.threshold,
            section: a.annotation_set_id,
            section_label_id: a.label_set_id,
            section_label_text: labelSetName.get(a.label_set_id) ?? null,
            is_correct: a.is_correct,
            revised: a.revised,
            accuracy: a.confidence,
            origin: a.origin,
            created_by: a.created_by,
            revised_by: a.revised_by,
            custom_offset_string: a.custom_offset_string,
            offset_string: a.offset_string,
            offset_string_original: a.spans.map((s) => s.offset_string_original).join(' '),
            start_offset: a.start_offset,
            end_offset: a.end_offset,
            normalized: a.normalized,
            translated_string: null,
            bboxes: a.spans.map((s) => ({ ...s, line_number: lineOf(chars, s.start_offset) })),
          };
        }),
      ),
    });
    const missing = await repos.annotations.missingOfDocument(doc.id);
    counts.missing_annotations += missing.length;
    entries.push({ name: `${dir}/${MISSING_FILE}`, data: sdkJson(missing.map((m) => ({ id: m.id, label: m.label_id, label_set: m.label_set_id, annotation_set: m.annotation_set_id }))) });
    for (const p of pages) if (p.image_blob) entries.push({ name: `${dir}/page_${p.number}.png`, data: await blobs.read(p.image_blob) });
    // Where the SDK's Document.get_file puts them: the file under its slugified name, the searchable PDF beside it.
    // A file named like one of the folder's own (an upload called document.txt) is left out rather than clobber it.
    const taken = new Set(entries.filter((e) => e.name.startsWith(`${dir}/`)).map((e) => e.name));
    const originalName = `${dir}/${sdkFileName(doc.data_file_name)}`;
    if (!taken.has(originalName)) entries.push({ name: originalName, data: await blobs.read(doc.blob_key) });
    const searchableName = `${dir}/${sdkFileName(doc.data_file_name, 'ocr', '.pdf')}`;
    if (doc.searchable_blob_key && !taken.has(searchableName) && searchableName !== originalName) entries.push({ name: searchableName, data: await blobs.read(doc.searchable_blob_key) });
  }
  return { entries, counts };
}

/** A document's record in documents_meta.json5, as the hosted service's list items (status_data, no `update`). */
function documentMeta(d: DocumentRow) {
  return {
    id: d.id,
    assignee: d.assignee_id,
    category: d.category_id,
    category_template: d.category_id,
    category_confidence: d.category_confidence,
    category_is_revised: d.category_is_revised,
    callback_url: d.callback_url,
    data_file_name: d.data_file_name,
    dataset_status: d.dataset_status,
    file_url: `/doc/show/${d.id}/`,
    is_reviewed: d.is_reviewed,
    number_of_pages: d.number_of_pages,
    status: [d.status, statusName(d.status)],
    status_data: d.status,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/**
 * A page image's size where Folio has no image: the hosted service's, 2000 pixels high (the SDK's Page
 * needs one to scale boxes to images).
 */
function imageSizeOf(widthPt: number, heightPt: number): [number, number] {
  return [Math.round((widthPt * 2000) / heightPt), 2000];
}

function lineOf(chars: readonly CharBox[], offset: number | null): number | null {
  if (offset === null) return null;
  return chars.find((c) => c.offset >= offset)?.line_index ?? null;
}

/** The characters as bbox.json5 holds them: by offset, with the SDK's page_number and line_number. */
function bboxOf(chars: readonly CharBox[]) {
  const out: Record<string, object> = {};
  for (const c of chars) {
    out[c.offset] = { x0: c.x0, x1: c.x1, y0: c.y0, y1: c.y1, top: c.top, bottom: c.bottom, page_number: c.page_index + 1, page_index: c.page_index, line_number: c.line_index, text: c.text };
  }
  return out;
}

/** The folder as a ZIP (the API's download), entries under one folder named `folderName`. */
export function projectFolderZip(entries: readonly FolderEntry[], folderName: string): Buffer {
  return writeZip(entries.map((e) => ({ name: `${folderName}/${e.name}`, data: e.data })));
}
