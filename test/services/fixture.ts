// The service tier's set-up: a Folio core over a fresh temporary data folder with a real SQLite file,
// built by openCore exactly as the server builds it, but without the HTTP server and without the job
// runners (openCore starts those only for the instance that takes the folder's lock). Uploads therefore
// stay queued; `processed` writes what processing would store for a born-digital PDF, through the
// repositories, so that rules needing pages and text run in milliseconds (the pipeline itself is tested
// in test/pipeline and test/http). Users, projects and documents are made through the services.
//
// openFixture is the one place that opens the store: with FOLIO_TEST_DB=postgres it runs on a PostgreSQL
// database of its own (test/helpers/testStore.ts); the tests below it see only services and repositories.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from 'vitest';
import { loadConfig } from '../../main/config.ts';
import { openCore, type Core } from '../../main/core.ts';
import type { Services } from '../../main/services/index.ts';
import type { ProjectRow, UserRow } from '../../main/store/schema.ts';
import type { DocumentView } from '../../main/store/repositories/documentRepository.ts';
import type { DocumentUpload } from '../../shared/schemas/documents.ts';
import type { ListParams } from '../../shared/listParams.ts';
import type { ProjectRole } from '../../main/store/repositories/projectRepository.ts';
import { layoutText, type LayoutInputChar } from '../../main/pipeline/textLayout.ts';
import type { CharBox } from '../../main/domain/geometry.ts';
import { DocumentStatus } from '../../main/domain/documentStatus.ts';
import { withTestStore } from '../helpers/testStore.ts';

export const PASSWORD = 'service-password-1';

/** One page of a list, as the HTTP edge would parse `?limit=1000` with optional filters. */
export const listParams = (filters: Record<string, string> = {}): ListParams => ({ limit: 1000, offset: 0, ordering: [], filters });

/** A span's rectangle (PDF points, origin bottom left) on a page of a document. */
export interface Box {
  page_index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface ProcessedDocument {
  doc: DocumentView;
  /** The rectangle around the first occurrence of `words` (any white space between them) in the text. */
  box(words: string): Box;
}

/**
 * Category "Invoice" (also its default label set) with labels Date (data type Date) and Total (Number),
 * and the repeating label set "Line items" of that category with labels Item (Text) and Amount (Number).
 */
export interface Taxonomy {
  project: number;
  category: number;
  items: number;
  labels: { date: number; total: number; item: number; amount: number };
}

export interface Fixture {
  core: Core;
  services: Services;
  /** The first account, an administrator (not a member of anyone's project unless added). */
  admin: UserRow;
  user(email: string, password?: string): Promise<UserRow>;
  /** A project of `owner` with each of `members` added as a member (or with the role given). */
  project(owner: UserRow, name: string, members?: (UserRow | [UserRow, ProjectRole])[]): Promise<ProjectRow>;
  /** Through TaxonomyService: see Taxonomy. */
  taxonomy(user: UserRow, project: number): Promise<Taxonomy>;
  /** An upload through DocumentService with a real PDF (a fresh one each call unless `pdf` is given). */
  upload(user: UserRow, fields: Omit<DocumentUpload, 'project'> & { project: number }, pdf?: Uint8Array, name?: string): Promise<DocumentView>;
  /** An upload of a born-digital PDF with these pages (lines from the top down), stored as processed. */
  processed(user: UserRow, fields: Omit<DocumentUpload, 'project'> & { project: number }, pages?: string[][]): Promise<ProcessedDocument>;
  close(): Promise<void>;
}

// Where the lines of a page are drawn, and the font: the same for the PDF and for its stored characters.
const PAGE = { width: 595, height: 842, x: 60, top: 780, leading: 18, size: 11 };

/** A born-digital PDF with the pages' lines drawn, and the characters a text extraction would read. */
async function linesPdf(pages: string[][]): Promise<{ bytes: Uint8Array; chars: LayoutInputChar[][] }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const ascent = font.heightAtSize(PAGE.size, { descender: false });
  const descent = font.heightAtSize(PAGE.size) - ascent;
  const chars = pages.map((lines) => {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    const out: LayoutInputChar[] = [];
    lines.forEach((line, i) => {
      const baseline = PAGE.top - PAGE.leading * i;
      page.drawText(line, { x: PAGE.x, y: baseline, size: PAGE.size, font });
      let x = PAGE.x;
      for (const ch of line) {
        const w = font.widthOfTextAtSize(ch, PAGE.size);
        if (ch.trim()) out.push({ text: ch, x0: x, x1: x + w, y0: baseline - descent, y1: baseline + ascent, baseline });
        x += w;
      }
    });
    return out;
  });
  return { bytes: await pdf.save({ useObjectStreams: false }), chars };
}

let uploads = 0;

export async function openFixture(opts: { env?: NodeJS.ProcessEnv } = {}): Promise<Fixture> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-services-'));
  const config = loadConfig(await withTestStore(dataDir, opts.env), { dataDir, port: 0, host: '127.0.0.1' });
  // Without the lock, openCore starts no job runner: nothing runs behind the tests' backs.
  const core = await openCore(config, { lock: false });
  const { services } = core;
  await services.users.ensureAdmin('admin@services.test', PASSWORD);
  const admin = await services.users.byEmail('admin@services.test');

  const upload: Fixture['upload'] = async (user, fields, pdf, name = 'invoice.pdf') => {
    const bytes = pdf ?? (await linesPdf([[`Upload ${++uploads} ${process.pid}`]])).bytes;
    // What multer leaves: a file in the blob store's temporary folder, adopted by the upload.
    const file = core.blobs.tempPath('.upload');
    fs.writeFileSync(file, bytes);
    return services.documents.upload(user, fields, { path: file, originalname: name, size: bytes.length });
  };

  return {
    core,
    services,
    admin,
    async user(email, password = PASSWORD) {
      return services.users.create(email, password);
    },
    async project(owner, name, members = []) {
      const project = await services.projects.create(owner, { name });
      for (const m of members) {
        const [user, role] = Array.isArray(m) ? m : [m, undefined];
        await services.projects.addMember(owner, project.id, user.email, role);
      }
      return project;
    },
    async taxonomy(user, project) {
      const t = services.taxonomy;
      const category = (await t.createCategory(user, { project, name: 'Invoice' })).id;
      const label = async (name: string, data_type: string, label_sets: number[]) => (await t.createLabel(user, { project, name, data_type, label_sets })).id;
      const date = await label('Date', 'Date', [category]);
      const total = await label('Total', 'Number', [category]);
      const item = await label('Item', 'Text', []);
      const amount = await label('Amount', 'Number', []);
      const items = (await t.createLabelSet(user, { project, name: 'Line items', categories: [category], labels: [item, amount], has_multiple_sections: true })).id;
      return { project, category, items, labels: { date, total, item, amount } };
    },
    upload,
    async processed(user, fields, pages = [['Invoice 2024-001', 'Date 12.03.2024', 'Total 12,50 EUR']]) {
      const pdf = await linesPdf(pages);
      const queued = await upload(user, fields, pdf.bytes);
      const layout = layoutText(pdf.chars.map((chars) => ({ height: PAGE.height, chars })));
      // What the processor stores when a born-digital PDF has been read (DocumentProcessor.process).
      await core.uow(async (r) => {
        await r.pages.replaceForDocument(
          queued.id,
          pages.map((_, i) => ({
            number: i + 1, widthPt: PAGE.width, heightPt: PAGE.height, rotation: 0,
            imageBlob: null, imageWidth: null, imageHeight: null, thumbnailBlob: null,
            hasTextLayer: true, ocr: false, chars: layout.chars.filter((c) => c.page_index === i),
          })),
        );
        await r.documents.update(queued.id, {
          text: layout.text, number_of_pages: pages.length, searchable_blob_key: queued.blob_key, status: DocumentStatus.DONE, status_reason: null,
        });
      });
      const doc = (await core.repos.documents.findById(queued.id))!;
      return {
        doc,
        box(words) {
          const pattern = new RegExp(words.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
          const m = pattern.exec(layout.text);
          expect(m, `"${words}" in the text of document ${doc.id}`).not.toBeNull();
          const inside = layout.chars.filter((c: CharBox) => c.offset >= m!.index && c.offset < m!.index + m![0].length);
          return {
            page_index: inside[0].page_index,
            x0: Math.min(...inside.map((c) => c.x0)) - 0.5,
            x1: Math.max(...inside.map((c) => c.x1)) + 0.5,
            y0: Math.min(...inside.map((c) => c.y0)) - 0.5,
            y1: Math.max(...inside.map((c) => c.y1)) + 0.5,
          };
        },
      };
    },
    async close() {
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Awaits a call that must be refused with an error of `type` (the class the HTTP layer maps to its status). */
export async function refused<T extends Error>(call: Promise<unknown>, type: abstract new (...args: any[]) => T): Promise<T> {
  let error: unknown;
  try {
    await call;
  } catch (err) {
    error = err;
  }
  expect(error, 'a refusal').toBeInstanceOf(type);
  return error as T;
}
