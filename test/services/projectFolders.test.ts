// Project folders in the SDK's layout (docs/project-folders.md): the payslip folder imported as it is, a
// Folio project exported, imported into a fresh data folder and exported again, and folders that cannot
// be imported, which leave no row and no file behind.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFixture, type Fixture } from './fixture.ts';
import { AlreadyImportedError, FolderError } from '../../main/projectFolder/errors.ts';
import type { ImportReport } from '../../main/projectFolder/importProject.ts';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { readZipEntry } from '../fixtures/zip.ts';
import { canonicalFolder, PAYSLIPS_DIR, payslipCopy } from '../helpers/projectFolders.ts';

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const meta: any[] = readJson(path.join(PAYSLIPS_DIR, 'documents_meta.json5'));

/** What the store holds: rows of every table a project import writes, and the blobs. */
async function storeState(f: Fixture) {
  const db = f.core.store.db as any;
  const count = async (table: string) => Number((await db.selectFrom(table).select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const tables = ['projects', 'categories', 'label_sets', 'labels', 'documents', 'pages', 'annotation_sets', 'annotations', 'missing_annotations', 'project_imports'];
  return { rows: Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)]))), blobs: (await f.core.blobs.keys()).sort() };
}

describe('importing the payslip folder', () => {
  let f: Fixture;
  let report: ImportReport;
  beforeAll(async () => {
    f = await openFixture();
    report = await f.services.projectFolders.adminImport(PAYSLIPS_DIR);
  }, 120_000);
  afterAll(() => f.close());

  it('reports what it imported and how the ids were remapped', () => {
    expect(report.project.name).toBe('payslips');
    expect(report.counts).toMatchObject({ categories: 2, label_sets: 11, labels: 47, documents: 57, without_folder: 1, original_files: 0, page_images: 3, annotations: 1948 });
    expect(Object.keys(report.ids.documents).map(Number).sort()).toEqual(meta.map((m) => m.id).sort());
    // A category and its default label set keep one id, as in the folder.
    expect(report.ids.label_sets['63']).toBe(report.ids.categories['63']);
  });

  it('gives 57 documents whose text, boxes, annotations and dataset status match the folder', async () => {
    const { repos } = f.core;
    const docs = await repos.documents.ofProject(report.project.id);
    expect(docs).toHaveLength(57);
    let compared = { boxes: 0, annotations: 0, withBoxes: 0 };
    for (const m of meta) {
      const doc = (await repos.documents.findById(report.ids.documents[m.id]))!;
      expect(doc.dataset_status, `document ${m.id}`).toBe(m.dataset_status);
      expect(doc.category_id).toBe(m.category_template === null ? null : report.ids.categories[m.category_template]);
      expect(doc.data_file_name).toBe(m.data_file_name);
      expect(doc.status).toBe(2);
      const dir = path.join(PAYSLIPS_DIR, 'documents', String(m.id));
      if (!fs.existsSync(dir)) {
        // Listed, not downloaded (the SDK exports training and test documents): its record with blank pages.
        expect(doc.text).toBe('\f'.repeat(m.number_of_pages - 1));
        continue;
      }
      const text = fs.readFileSync(path.join(dir, 'document.txt'), 'utf8');
      expect(doc.text).toBe(text);
      expect(doc.number_of_pages).toBe(text.split('\f').length);

      const stored = await f.services.geometry.bbox(f.admin, doc.id);
      if (fs.existsSync(path.join(dir, 'bbox.zip'))) {
        compared.withBoxes++;
        const boxes: Record<string, any> = JSON.parse(readZipEntry(fs.readFileSync(path.join(dir, 'bbox.zip')), 'bbox.json5').toString('utf8'));
        expect(Object.keys(stored).sort()).toEqual(Object.keys(boxes).sort());
        for (const [offset, b] of Object.entries(boxes)) {
          const s = stored[offset];
          expect(s.text).toBe(b.text);
          expect(s.page_index).toBe(b.page_number - 1);
          // Stored to four decimals of a point (main/store/pageChars.ts).
          const want = [Math.min(b.x0, b.x1), Math.max(b.x0, b.x1), Math.min(b.y0, b.y1), Math.max(b.y0, b.y1)];
          [s.x0, s.x1, s.y0, s.y1].forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(0.00005 + 1e-9));
          compared.boxes++;
        }
      } else expect(stored).toEqual({});

      const annotations = readJson(path.join(dir, 'annotations.json5'));
      const rows = await repos.annotations.annotationsOfDocument(doc.id);
      expect(rows).toHaveLength(annotations.length);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const a of annotations) {
        const row = byId.get(report.ids.annotations[a.id])!;
        expect(row.label_id).toBe(report.ids.labels[a.label]);
        expect(row.label_set_id).toBe(report.ids.label_sets[a.section_label_id]);
        expect(row.annotation_set_id).toBe(report.ids.annotation_sets[a.section]);
        expect([row.is_correct, row.revised]).toEqual([a.is_correct, a.revised]);
        expect(row.spans.map((s) => [s.start_offset, s.end_offset, s.page_index, s.offset_string])).toEqual(a.bboxes.map((b: any) => [b.start_offset, b.end_offset, b.page_index, b.offset_string]));
        compared.annotations++;
      }
    }
    expect(compared).toEqual({ boxes: 124260, annotations: 1948, withBoxes: 54 });
  });

  it('says so when the same folder is imported again, and changes nothing', async () => {
    const before = await storeState(f);
    const again = f.services.projectFolders.adminImport(PAYSLIPS_DIR);
    await expect(again).rejects.toBeInstanceOf(AlreadyImportedError);
    await expect(f.services.projectFolders.adminImport(PAYSLIPS_DIR)).rejects.toThrow(`as project ${report.project.id} ("payslips")`);
    expect(await storeState(f)).toEqual(before);
  });

  it('draws a PDF of the text where it stands for a document without its file', async () => {
    const doc = (await f.core.repos.documents.findById(report.ids.documents['44823']))!;
    expect(doc.searchable_blob_key).toBe(doc.blob_key);
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pdf = await pdfjs.getDocument({ data: new Uint8Array(await f.core.blobs.read(doc.blob_key)), useSystemFonts: false }).promise;
    const items = (await (await pdf.getPage(1)).getTextContent()).items as { str: string; transform: number[] }[];
    // The folder's character 66 ("3" of "328927/10103", box from x0 462.48, y0 808.831, 9 pt high) starts a word
    // drawn there (on the baseline above the box's bottom by Helvetica's descent).
    const boxes = JSON.parse(readZipEntry(fs.readFileSync(path.join(PAYSLIPS_DIR, 'documents/44823/bbox.zip')), 'bbox.json5').toString('utf8'));
    const box = boxes['66'];
    const drawn = items.filter((i) => i.str.startsWith(box.text) && Math.abs(i.transform[4] - box.x0) < 0.01);
    expect(drawn).toHaveLength(1);
    expect(drawn[0].transform[5] - box.y0).toBeCloseTo(0.207 * 9, 2);
    // Every character with a box is drawn, nothing else (but the few Helvetica has no glyph for, an OCR's "ı").
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const glyphs = new Set(font.getCharacterSet());
    const nonSpace = (s: string) => s.replace(/\s/g, '').length;
    const withBoxes = Object.values(boxes).filter((b: any) => b.text.trim());
    expect(withBoxes.filter((b: any) => !glyphs.has(b.text.codePointAt(0))).map((b: any) => b.text)).toEqual(Array(13).fill('ı'));
    expect(items.reduce((n, i) => n + nonSpace(i.str), 0)).toBe(withBoxes.length - 13);
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));
const SDK_DIR = path.resolve(here, '../../../shared/clients/konfuzio-sdk');

/** The SDK's offline view of a folder (test/sdk/offlineFolder.py), with Debian's python3 and the stand-ins of test/sdk/standins. */
function sdkView(folder: string): Promise<any> {
  const env = { PATH: process.env.PATH, HOME: folder, PYTHONPATH: [path.resolve(here, '../sdk/standins'), SDK_DIR].join(path.delimiter), LOG_TO_FILE: 'False', PYTHONDONTWRITEBYTECODE: '1' };
  return new Promise((resolve, reject) =>
    execFile('/usr/bin/python3', [path.resolve(here, '../sdk/offlineFolder.py'), folder], { cwd: folder, env, maxBuffer: 256 * 1024 * 1024, timeout: 300_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr.slice(-3000)}`)) : resolve(JSON.parse(stdout.trim().split('\n').pop()!)),
    ),
  );
}

describe('the SDK reads an exported folder offline', () => {
  let f: Fixture;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-sdk-folder-'));
  afterAll(async () => {
    await f?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('sees in Folio\'s export of the imported payslips what it sees in the original folder', async () => {
    f = await openFixture();
    const report = await f.services.projectFolders.adminImport(PAYSLIPS_DIR);
    await f.services.projectFolders.adminExport(report.project.id, path.join(work, 'exported'));
    // The SDK makes folders in a project folder (regex/, models/): it reads a copy of the original.
    const original = payslipCopy();
    try {
      const [before, after] = [await sdkView(original), await sdkView(path.join(work, 'exported'))];
      expect(after.categories).toEqual(before.categories);
      expect(after.labels).toEqual(before.labels);
      expect(after.label_sets).toEqual(before.label_sets);
      expect([after.training, after.test]).toEqual([before.training, before.test]);
      expect(Object.keys(after.documents)).toHaveLength(57);
      let annotations = 0;
      for (const [id, seen] of Object.entries<any>(before.documents)) {
        const exported = after.documents[String(report.ids.documents[id])];
        if (seen.pages === null) {
          // The one document without a folder: the SDK sees no text there, and blank pages in the export.
          expect(exported.text).toBe(seen.text);
          expect(exported.annotations).toEqual([]);
          continue;
        }
        expect(exported, `document ${id}`).toEqual(seen);
        annotations += seen.annotations.length;
      }
      expect(annotations).toBeGreaterThan(1800);
    } finally {
      fs.rmSync(original, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('Folio -> folder -> Folio', () => {
  let a: Fixture;
  let b: Fixture;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-roundtrip-'));
  beforeAll(async () => {
    [a, b] = [await openFixture(), await openFixture()];
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('export, import into a fresh data folder and export again give identical folders, ids aside', async () => {
    const first = await a.services.projectFolders.adminImport(PAYSLIPS_DIR);
    // Something the payslips do not have: a missing annotation (a label marked as not in the document).
    const docId = first.ids.documents['44823'];
    const set = (await a.core.repos.annotations.setsOfDocument(docId))[0];
    const labelSet = (await a.core.repos.labelSets.findById(set.label_set_id))!;
    const unused = labelSet.label_ids[0];
    await a.core.repos.annotations.insertMissing({ document_id: docId, label_id: unused, label_set_id: set.label_set_id, annotation_set_id: set.id, created_by: a.admin.id });

    // The fresh data folder has rows of its own first, so that its ids differ from the first one's.
    const other = await b.project(b.admin, 'Other');
    await b.taxonomy(b.admin, other.id);
    await b.upload(b.admin, { project: other.id });

    const one = await a.services.projectFolders.adminExport(first.project.id, path.join(work, 'one'));
    expect(one.counts).toMatchObject({ documents: 57, annotations: 1948, missing_annotations: 1 });
    const second = await b.services.projectFolders.adminImport(path.join(work, 'one'));
    expect(second.project.name).toBe('payslips');
    // The exported folder holds every document's file (the drawn PDFs): read as the documents' own files this time.
    expect(second.counts).toMatchObject({ documents: 57, annotations: 1948, missing_annotations: 1, characters: first.counts.characters, pages: first.counts.pages, page_images: 3, original_files: 57, without_folder: 0 });
    await b.services.projectFolders.adminExport(second.project.id, path.join(work, 'two'));

    const [x, y] = [canonicalFolder(path.join(work, 'one')), canonicalFolder(path.join(work, 'two'))];
    expect([...y.keys()].filter((k) => !x.has(k))).toEqual([]);
    expect([...x.keys()].filter((k) => !y.has(k))).toEqual([]);
    for (const [name, content] of x) expect(y.get(name), name).toBe(content);
    // The ids did change (a fresh store numbers its rows itself): the comparison did not just see copies.
    expect(fs.readdirSync(path.join(work, 'two', 'documents')).sort()).not.toEqual(fs.readdirSync(path.join(work, 'one', 'documents')).sort());
    expect(readJson(path.join(work, 'two', 'categories_and_label_data.json5'))[0].id).not.toBe(readJson(path.join(work, 'one', 'categories_and_label_data.json5'))[0].id);
  }, 180_000);

  it('the exported folder is the SDK\'s layout: taxonomy, meta and per document files', () => {
    const categories = readJson(path.join(work, 'one', 'categories_and_label_data.json5'));
    expect(categories.map((c: any) => c.name).sort()).toEqual(['Lohnabrechnung', 'Quittung (GERMAN)']);
    // The SDK passes these dicts as keywords beside its own parameters: never `text`, `project` or `label_sets`.
    for (const l of categories.flatMap((c: any) => c.schema.flatMap((s: any) => s.labels))) expect(Object.keys(l)).not.toEqual(expect.arrayContaining(['text']));
    const docMeta = readJson(path.join(work, 'one', 'documents_meta.json5'));
    expect(docMeta).toHaveLength(57);
    expect(Object.keys(docMeta[0])).not.toContain('update');
    const first = docMeta.find((d: any) => d.data_file_name === 'Gehalt.pdf');
    expect(fs.readdirSync(path.join(work, 'one', 'documents', String(first.id))).sort()).toEqual(
      ['annotation_sets.json5', 'annotations.json5', 'bbox.zip', 'document.txt', 'gehalt.pdf', 'gehalt_ocr.pdf', 'missing_annotations.json5', 'page_1.png', 'pages.json5'].sort(),
    );
  });
});

describe('folders that cannot be imported', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await openFixture();
  });
  afterAll(() => f.close());

  const spoilt: [string, (dir: string) => void, RegExp][] = [
    ['no documents_meta.json5', (d) => fs.rmSync(path.join(d, 'documents_meta.json5')), /is not a project folder: it has no documents_meta\.json5/],
    ['documents_meta.json5 that is not JSON', (d) => fs.writeFileSync(path.join(d, 'documents_meta.json5'), '[{"id": 44823,'), /documents_meta\.json5 is not valid JSON/],
    ['no taxonomy', (d) => ['labels.json5', 'label_sets.json5'].forEach((x) => fs.rmSync(path.join(d, x))), /the categories and labels are missing/],
    [
      'an annotation of an unknown label',
      (d) => {
        const file = path.join(d, 'documents/44823/annotations.json5');
        const list = readJson(file);
        list[3].label = 999999;
        fs.writeFileSync(file, JSON.stringify(list));
      },
      /documents\/44823\/annotations\.json5, annotation 4 \(id \d+\): label 999999 is not one of the folder's labels/,
    ],
    [
      'a text that is not the one the boxes were made on',
      (d) => {
        const file = path.join(d, 'documents/44834/document.txt');
        const text = fs.readFileSync(file, 'utf8');
        const at = text.search(/[A-Za-z]/);
        fs.writeFileSync(file, text.slice(0, at) + (text[at] === 'X' ? 'Y' : 'X') + text.slice(at + 1));
      },
      /documents\/44834\/bbox\.zip, character \d+: its text ".*" is not document\.txt's "[XY]" at that offset/,
    ],
    ['a bbox.zip that is not a ZIP', (d) => fs.writeFileSync(path.join(d, 'documents/44834/bbox.zip'), 'not a zip'), /documents\/44834\/bbox\.zip: This is not a ZIP file/],
    [
      'pages.json5 with a page too few',
      (d) => fs.writeFileSync(path.join(d, 'documents/44834/pages.json5'), '[]'),
      /documents\/44834: pages\.json5 lists 0 page\(s\), document\.txt has 1/,
    ],
    [
      'a document of an unknown category',
      (d) => {
        const file = path.join(d, 'documents_meta.json5');
        const list = readJson(file);
        list[1].category_template = 4242;
        fs.writeFileSync(file, JSON.stringify(list));
      },
      /documents_meta\.json5, document 2: category 4242 is not one of the folder's categories/,
    ],
    [
      'a label marked missing twice',
      (d) => {
        const entry = { label: 867, label_set: 63, annotation_set: 78730 };
        fs.writeFileSync(path.join(d, 'documents/44823/missing_annotations.json5'), JSON.stringify([entry, entry]));
      },
      /documents\/44823\/missing_annotations\.json5: label 867 is marked missing twice in annotation set 78730/,
    ],
  ];

  it.each(spoilt)('%s: a clear error, and nothing is stored', async (_what, spoil, message) => {
    const dir = payslipCopy([44823, 44834]);
    try {
      spoil(dir);
      const before = await storeState(f);
      const attempt = f.services.projectFolders.adminImport(dir);
      await expect(attempt).rejects.toBeInstanceOf(FolderError);
      await expect(f.services.projectFolders.adminImport(dir)).rejects.toThrow(message);
      expect(await storeState(f)).toEqual(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a failure midway leaves no rows and no files', async () => {
    const before = await storeState(f);
    let documents = 0;
    const failing = f.services.projectFolders.adminImport(PAYSLIPS_DIR, {
      afterDocument: () => {
        if (++documents === 30) throw new Error('disk full (simulated) after 30 documents');
      },
    });
    await expect(failing).rejects.toThrow('disk full (simulated)');
    expect(documents).toBe(30);
    expect(await storeState(f)).toEqual(before);
    // And the folder imports afterwards: the failed attempt left no fingerprint behind either.
    const report = await f.services.projectFolders.adminImport(PAYSLIPS_DIR);
    expect(report.counts.documents).toBe(57);
  }, 120_000);
});
