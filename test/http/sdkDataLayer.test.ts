// The hosted service's Python SDK data layer (konfuzio_sdk/data.py: Project, Document, Annotation, Span, Bbox),
// unchanged, against a real Folio: the flows of its tutorials and of its own server tests, each a step of
// test/sdk/dataLayer.py, run once with Debian's python3 over real HTTP with real uploads and processing.
// The SDK reaches Folio through an HTTPS front (helpers/tlsFront.ts), as it reaches the hosted service: its
// session mounts the adapter that raises HTTPError on a refusal, with its timeout and retries, for https://
// only, so over plain http a refused request comes back as a body and its scripts go on as if it succeeded.
// Stand-ins for imports Debian lacks live in test/sdk/standins (each file says why): packaging metadata for
// pkg_resources.get_distribution('konfuzio_sdk') and pympler (used only by utils.memory_size_of).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/testServer.ts';
import { created } from '../helpers/documentFixtures.ts';
import { startTlsFront, type TlsFront } from '../helpers/tlsFront.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const SDK_DIR = path.resolve(here, '../../../shared/clients/konfuzio-sdk');
const DRIVER = path.resolve(here, '../sdk/dataLayer.py');
const STANDINS = path.resolve(here, '../sdk/standins');
/** Debian's interpreter, where the python3-* packages are installed (another python3 may come first on PATH). */
const PYTHON = '/usr/bin/python3';
const LINE_1 = 'Name Erna Muster';
const LINE_2 = 'Hauptweg 12 Brutto 1.234,56';

interface StepResult {
  step: string;
  ok: boolean;
  error?: string;
  trace?: string;
  /** The server's last refusals (4xx/5xx) during the step. */
  refusals?: string[];
  got?: any;
}

let s: TestServer;
let front: TlsFront;
let steps: Map<string, StepResult>;
let project: number;
let category: number;

async function twoLinePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(LINE_1, { x: 72, y: 770, size: 12, font });
  page.drawText(LINE_2, { x: 72, y: 750, size: 12, font });
  return pdf.save({ useObjectStreams: false });
}

function runDriver(cwd: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile(PYTHON, [DRIVER], { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }, (err, stdout, stderr) =>
      resolve({ stdout, stderr, code: err ? Number((err as any).code ?? 1) : 0 }),
    );
  });
}

beforeAll(async () => {
  s = await startTestServer();
  const api = s.admin;
  project = (await created(api.post('/api/v3/projects/', { name: 'SDK data layer' }))).id;
  category = (await created(api.post('/api/v3/categories/', { project, name: 'Lohnabrechnung' }))).id;
  const label = async (name: string, data_type: string, label_sets: number[], description?: string) =>
    (await created(api.post('/api/v3/labels/', { project, name, data_type, label_sets, description }))).id as number;
  await label('Vorname', 'Text', [category]);
  await label('Austellungsdatum', 'Date', [category]);
  await label('Anschrift', 'Text', [category]);
  await label('Betrag', 'Positive Number', [category], 'Gross amount');
  const lohnart = await label('Lohnart', 'Text', []);
  const bezeichnung = await label('Bezeichnung', 'Text', []);
  await created(api.post('/api/v3/label-sets/', { project, name: 'Brutto-Bezug', categories: [category], labels: [lohnart, bezeichnung], has_multiple_sections: true }));
  const me = (await api.get('/api/v3/auth/me/')).body;

  front = await startTlsFront(s.url);
  const work = tempDir('folio-sdk-');
  const pdf = path.join(work, 'two-lines.pdf');
  fs.writeFileSync(pdf, await twoLinePdf());
  const run = await runDriver(work, {
    PATH: process.env.PATH,
    HOME: work,
    PYTHONPATH: [STANDINS, SDK_DIR].join(path.delimiter),
    KONFUZIO_HOST: front.url,
    REQUESTS_CA_BUNDLE: front.caFile,
    KONFUZIO_TOKEN: api.token,
    LOG_TO_FILE: 'False',
    PYTHONDONTWRITEBYTECODE: '1',
    FOLIO_PROJECT: String(project),
    FOLIO_CATEGORY: String(category),
    FOLIO_USER_ID: String(me.id),
    FOLIO_TWO_LINES_PDF: pdf,
    FOLIO_SDK_DIR: SDK_DIR,
    FOLIO_LINE_1: LINE_1,
    FOLIO_LINE_2: LINE_2,
  });
  const results = run.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as StepResult);
  steps = new Map(results.map((r) => [r.step, r]));
  if (results.length === 0) throw new Error(`the SDK driver printed no steps (exit ${run.code}):\n${run.stderr.slice(-4000)}`);
  const failed = results.filter((r) => !r.ok);
  console.log(`SDK data layer: ${results.length - failed.length} of ${results.length} steps pass`);
  for (const f of failed) console.log(`  ${f.step}: ${f.error}\n${f.trace}${(f.refusals ?? []).join('\n')}`);
}, 900_000);
afterAll(async () => {
  await front?.close();
  await s?.close();
});

/** The step ran and its own assertions (those of the SDK flow it follows) held. */
function passed(name: string): any {
  const r = steps.get(name);
  expect(r, `step ${name} did not run`).toBeDefined();
  expect(r!.ok, `${name}: ${r!.error}\n${r!.trace}\n${(r!.refusals ?? []).join('\n')}`).toBe(true);
  return r!.got;
}

describe('a project from the server', () => {
  it('Project(id_, update=True) reads categories, label sets and labels with their data types and descriptions', async () => {
    expect(passed('project_init').label_sets).toEqual(expect.arrayContaining(['Lohnabrechnung', 'Brutto-Bezug']));
    expect(passed('label_data_types_and_descriptions')).toMatchObject({ Austellungsdatum: ['Date', ''], Betrag: ['Positive Number', 'Gross amount'] });
    passed('label_set_repeats');
  });

  it('refreshes (project.get(update=True), init_or_update_document, a second Project) keep the numeric status', async () => {
    passed('project_get_update');
    passed('second_project_instance_reads_the_same');
    expect(passed('document_list_keys').keys).not.toContain('status');
    const got = passed('project_folder_after_refresh');
    expect(got).toMatchObject({ training: 1, test: 1 });
  });

  it('lists the AI models of the project by kind', async () => {
    expect(passed('ai_models')).toEqual({ extraction: 0, filesplitting: 0, categorization: 0 });
  });
});

describe('documents', () => {
  it('Document.from_file, sync and async; the async one is done after refreshing', async () => {
    const sync = passed('from_file_sync');
    const detail = (await s.admin.get(`/api/v3/documents/${sync.id}/`)).body;
    expect(sync.text).toBe(detail.text);
    passed('from_file_async');
    expect(passed('async_document_done_after_refresh').status).toBe(2);
  });

  it('text, pages, page images (downloaded and from bytes), the OCR and original files', async () => {
    passed('document_text_and_update');
    expect(passed('pages').size).toEqual([595, 842]);
    passed('page_image');
    passed('page_image_from_bytes');
    passed('document_images');
    expect(passed('ocr_and_original_files')).toEqual({ ocr: 'two-lines_ocr.pdf', original: 'two-lines.pdf' });
  });

  it('get_bbox gives a box to every printed character, spans know their line and box', async () => {
    const boxes = passed('get_bbox').boxes;
    const served = (await s.admin.get(`/api/v3/documents/${passed('from_file_sync').id}/bbox/`)).body.bbox;
    expect(boxes).toBe(Object.keys(served).length);
    passed('character_bboxes');
    passed('span_bbox_and_line');
    expect(passed('sentence_spans_from_bbox').first).toBe('Hi, my name is LeftTop.');
  });

  it('uploads of PNG, JPEG and PDF give PNG page images; an invalid file is refused before upload', async () => {
    passed('image_of_png_upload');
    passed('image_of_jpeg_upload');
    passed('image_of_pdf_upload');
    passed('invalid_file_refused_before_upload');
  });

  it('metadata: dataset status and assignee (by user id) are saved and read back; an unknown user is refused', async () => {
    expect(passed('modify_metadata_and_refresh')).toMatchObject({ dataset_status: 3 });
    passed('label_annotations_across_the_category');
    passed('set_category_manually');
  });

  it('a document of a dataset is not deleted online; local and online deletes as the SDK test expects', async () => {
    const got = passed('create_modify_and_delete_document');
    expect((await s.admin.get(`/api/v3/documents/${got.deleted}/`)).status).toBe(404);
  });
});

describe('annotations', () => {
  it('save into the default set, read back, refuse a second save and NO_LABEL', async () => {
    const got = passed('annotation_save_in_default_set');
    expect(got.offset_string).toEqual(['Erna']);
    passed('saved_annotation_cannot_be_saved_again');
    passed('no_label_annotation_not_saved');
  });

  it('an annotation over two lines keeps one span a line, in the SDK and on the server', async () => {
    const got = passed('annotation_over_two_lines');
    const doc = passed('from_file_sync').id;
    const listed = (await s.admin.get(`/api/v3/annotations/?document=${doc}`)).body.results;
    const multi = listed.find((a: any) => a.span.length === 2);
    expect(multi.span.map((x: any) => [x.start_offset, x.end_offset])).toEqual(got.spans);
    passed('annotations_after_reload_from_files');
  });

  it('annotations from a box, in new sets of a repeating label set', async () => {
    passed('annotation_in_a_new_set_of_a_repeating_label_set');
    expect(passed('second_annotation_set_of_the_same_label_set').sets).toHaveLength(2);
  });

  it('delete offline (back after update) and online (gone); view_annotations shows what is left', async () => {
    passed('delete_annotation_offline_then_online');
    expect(passed('view_annotations').viewed).toBe(3);
  });

  it('Document.save() saves the metadata; its annotations without a set or label set id are refused (spec 7.1)', async () => {
    passed('document_save');
  });
});

describe('layout', () => {
  it('get_segmentation gives one result a page, and a virtual copy reads the original one', async () => {
    passed('segmentation_of_document_and_virtual_copy');
  });
});

it('every step of the driver passes', () => {
  const failed = [...steps.values()].filter((r) => !r.ok).map((r) => `${r.step}: ${r.error}`);
  expect(failed).toEqual([]);
  expect(steps.size).toBe(40);
});
