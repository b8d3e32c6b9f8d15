// Issue 31 item 3: one failure path for damaged files of every type Folio accepts. The upload is accepted
// (201), the document ends in status 111 "Could not be processed" with a reason a reviewer understands (no
// pdf.js, pdf-lib, libvips or LibreOffice wording), the original stays downloadable and deletable, and the
// document list shows the document with that reason. The spec's flow: accepted, then failed processing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { created, upload } from '../helpers/documentFixtures.ts';
import { encryptedPdf, textPdf } from '../fixtures/pdfSamples.ts';
import { multiPageTiff, orientedJpeg, transparentPng } from '../fixtures/imageSamples.ts';
import { makeDocx, makeOdfSkeleton, makeXlsx, writeZip } from '../fixtures/ooxml.ts';
import { writeCompoundFile } from '../fixtures/ole2.ts';
import { officeAvailable } from '../../main/pipeline/office.ts';

let s: TestServer;
let project: number;

beforeAll(async () => {
  s = await startTestServer();
  project = (await created(s.admin.post('/api/v3/projects/', { name: 'Damaged files' }))).id;
});
afterAll(() => s.close());

const cut = (b: Buffer, fraction: number) => b.subarray(0, Math.floor(b.length * fraction));
/** The bytes with a run in the middle overwritten by junk: a file damaged in transfer or on disk. */
const scrambled = (b: Buffer, from = 0.3, to = 0.7) => {
  const out = Buffer.from(b);
  for (let i = Math.floor(b.length * from); i < Math.floor(b.length * to); i++) out[i] = (i * 7919) & 0xff;
  return out;
};

const TEXT = 'Invoice 4711 total 99.50 EUR';

/** Library wording that must not reach a reviewer. */
const INTERNAL = /pdf-lib|pdf\.js|pdfjs|vips|sharp|libtiff|libpng|libjpeg|soffice|TypeError|RangeError|Error:|Exception|stack|\bat \S+ \(|errno|ENOENT|0x[0-9a-f]{4}/i;

interface DamagedCase {
  name: string;
  bytes: () => Promise<Buffer> | Buffer;
  /** What the reason must say, besides being free of library wording. */
  reason: RegExp;
  office?: boolean;
}

const cases: DamagedCase[] = [
  { name: 'truncated.pdf', bytes: async () => cut(await textPdf([[TEXT]]), 0.4), reason: /PDF.*damaged/i },
  { name: 'scrambled.pdf', bytes: async () => Buffer.concat([Buffer.from('%PDF-1.7\n'), scrambled(Buffer.alloc(4000, 'x'), 0, 1)]), reason: /PDF.*damaged/i },
  { name: 'header-only.pdf', bytes: () => Buffer.from('%PDF-1.4\n%%EOF\n'), reason: /PDF.*damaged/i },
  { name: 'locked.pdf', bytes: () => encryptedPdf({ userPassword: 'secret', ownerPassword: 'owner', text: TEXT }), reason: /password/i },
  { name: 'empty.pdf', bytes: () => Buffer.alloc(0), reason: /empty/i },
  { name: 'truncated.jpg', bytes: async () => cut(await orientedJpeg(1), 0.3), reason: /JPEG.*damaged/i },
  { name: 'scrambled.jpg', bytes: async () => scrambled(await orientedJpeg(1), 0.1, 0.9), reason: /JPEG.*damaged/i },
  { name: 'truncated.png', bytes: async () => cut(await transparentPng(), 0.5), reason: /PNG.*damaged/i },
  { name: 'scrambled.png', bytes: async () => scrambled(await transparentPng(), 0.2, 0.95), reason: /PNG.*damaged/i },
  { name: 'truncated.tif', bytes: async () => cut(await multiPageTiff(['#ff0000', '#00ff00'], 200, 120), 0.4), reason: /TIFF.*damaged/i },
  { name: 'header-only.tif', bytes: () => Buffer.from('MM\0*\0\0\0\x08', 'latin1'), reason: /TIFF.*damaged/i },
  { name: 'truncated.docx', bytes: () => cut(makeDocx([TEXT]), 0.5), reason: /damaged|could not be converted/i, office: true },
  { name: 'scrambled.docx', bytes: () => writeZip([{ name: '[Content_Types].xml', data: Buffer.from('<Types') }, { name: 'word/document.xml', data: scrambled(Buffer.alloc(2000, 'w'), 0, 1) }]), reason: /damaged|could not be converted/i, office: true },
  { name: 'truncated.xlsx', bytes: () => cut(makeXlsx([['Total', 99.5]]), 0.5), reason: /damaged|could not be converted/i, office: true },
  { name: 'truncated.odt', bytes: () => cut(makeOdfSkeleton('application/vnd.oasis.opendocument.text'), 0.6), reason: /damaged|could not be converted/i, office: true },
  { name: 'hollow.doc', bytes: () => writeCompoundFile([{ name: 'WordDocument' }, { name: '1Table' }]), reason: /damaged|could not be converted/i, office: true },
  { name: 'hollow.xls', bytes: () => writeCompoundFile([{ name: 'Workbook' }]), reason: /damaged|could not be converted/i, office: true },
  {
    name: 'locked.docx',
    bytes: () => writeCompoundFile([{ name: 'EncryptionInfo' }, { name: 'EncryptedPackage' }]),
    reason: /password/i,
    office: true,
  },
];

describe('a damaged file of every type: accepted, then 111 with a human reason', () => {
  it.each(cases)('$name', { timeout: 120_000 }, async ({ name, bytes, reason, office }) => {
    if (office && !officeAvailable()) return expect(officeAvailable()).toBe(false); // LibreOffice absent: office uploads are a 415 (uploadTypes)
    const data = await bytes();
    const r = await upload(s.admin, { project, sync: 'true' }, { name, data });
    expect(r.status, r.text).toBe(201);
    const doc = (await s.admin.get(`/api/v3/documents/${r.body.id}/`)).body;
    expect(doc.status).toEqual([111, 'Could not be processed']);
    expect(doc.status_reason).toMatch(reason);
    expect(doc.status_reason, doc.status_reason).not.toMatch(INTERNAL);

    // The list shows it, with the same reason.
    const list = (await s.admin.get(`/api/v3/documents/?project=${project}&status=111&limit=1000`)).body.results;
    expect(list.find((d: any) => d.id === doc.id)).toMatchObject({ status_data: 111, status_reason: doc.status_reason, data_file_name: name });

    // The original is kept, byte for byte, and the document can be deleted.
    const original = await fetch(`${s.url}/doc/show-original/${doc.id}/`, { headers: { Authorization: `Token ${s.admin.token}` } });
    expect(original.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await original.arrayBuffer()), data)).toBe(0);
    expect((await s.admin.delete(`/api/v3/documents/${doc.id}/`)).status).toBe(204);
    expect((await s.admin.get(`/api/v3/documents/${doc.id}/`)).status).toBe(404);
  });

  it('an asynchronous upload answers at once and the document fails the same way', async () => {
    const r = await upload(s.admin, { project }, { name: 'async.png', data: cut(await transparentPng(), 0.5) });
    expect(r.status).toBe(201);
    expect(r.body.status_data).not.toBe(111);
    for (let i = 0; i < 200; i++) {
      const d = (await s.admin.get(`/api/v3/documents/${r.body.id}/`)).body;
      if (d.status_data === 111) return expect(d.status_reason).toMatch(/PNG.*damaged/i);
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error('the damaged upload never reached 111');
  });

  it('types Folio does not read stay a 415, and nothing is stored', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
    const r = await upload(s.admin, { project }, { name: 'tool.pdf', data: elf });
    expect(r.status).toBe(415);
    expect((await s.admin.get(`/api/v3/documents/?project=${project}&name=tool.pdf`)).body.count).toBe(0);
  });
});
