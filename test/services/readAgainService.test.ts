// ReadAgainService's rules without HTTP, the ones decided before any OCR runs: only a processed document
// is read again, in languages this installation reads; a whole reading is queued and sends the document
// back through processing (one at a time); a region must lie on a page of the document. Reading itself
// (OCR) is tested through HTTP in test/http/readAgain.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../main/domain/errors.ts';
import { DocumentStatus } from '../../main/domain/documentStatus.ts';
import type { ProjectRow, UserRow } from '../../main/store/schema.ts';
import { openFixture, refused, type Fixture } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let project: ProjectRow;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@read-again.test');
  stranger = await f.user('stranger@read-again.test');
  project = await f.project(owner, 'Read again');
});
afterAll(() => f?.close());

const fields = async (call: Promise<unknown>) => (await refused(call, ValidationError)).fields;
const notDone = (status: string) => ({ non_field_errors: [`The document cannot be read again while it is "${status}": wait until it is done.`] });

describe('ReadAgainService', () => {
  it('queues a reading of a processed document, which goes back through processing; a second request waits for it', async () => {
    const { doc } = await f.processed(owner, { project: project.id });
    expect(Object.keys(await fields(f.services.readAgain.readDocument(owner, doc.id, { ocr_languages: ['Klingon'] })))).toEqual(['ocr_languages']);
    await refused(f.services.readAgain.readDocument(stranger, doc.id, {}), NotFoundError);
    expect((await f.services.readAgain.readDocument(owner, doc.id, { ocr_languages: ['English'] })).status).toBe(DocumentStatus.QUEUING_FOR_OCR);
    expect(await fields(f.services.readAgain.readDocument(owner, doc.id, {}))).toEqual(notDone('Queuing for OCR'));
  });

  it('reads a region only of a processed document, on one of its pages, at least 2 points wide and high', async () => {
    const queued = await f.upload(owner, { project: project.id });
    const region = { page_index: 0, x0: 50, x1: 200, y0: 700, y1: 760 };
    expect(await fields(f.services.readAgain.readRegion(owner, queued.id, region))).toEqual(notDone('Queuing for OCR'));
    const { doc } = await f.processed(owner, { project: project.id });
    expect(await fields(f.services.readAgain.readRegion(owner, doc.id, { ...region, page_index: 1 }))).toEqual({ page_index: [`Document ${doc.id} has 1 page (page_index 0 to 0).`] });
    expect(await fields(f.services.readAgain.readRegion(owner, doc.id, { ...region, x0: 600, x1: 700 }))).toEqual({
      non_field_errors: ['The region must lie on page 1 (595 x 842 points) and be at least 2 points wide and high.'],
    });
    expect(Object.keys(await fields(f.services.readAgain.readRegion(owner, doc.id, { ...region, ocr_languages: ['Klingon'] })))).toEqual(['ocr_languages']);
    await refused(f.services.readAgain.readRegion(stranger, doc.id, region), NotFoundError);
  });
});
