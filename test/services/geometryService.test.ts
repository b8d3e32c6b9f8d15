// GeometryService's rules without HTTP: every character box by offset, the characters inside
// rectangles and search hits as spans with offsets, pages by number with their words, page indexes
// checked against the document, and the access rules of documents (public ones readable by anyone;
// an anonymous caller learns nothing about which pages exist).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, NotFoundError, ValidationError } from '../../main/domain/errors.ts';
import type { UserRow } from '../../main/store/schema.ts';
import { openFixture, refused, type Fixture, type ProcessedDocument } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let p: ProcessedDocument;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@geometry.test');
  stranger = await f.user('stranger@geometry.test');
  const project = await f.project(owner, 'Geometry');
  p = await f.processed(owner, { project: project.id }, [['Invoice 2024-001', 'Total 12,50 EUR'], ['Page two', 'Total again']]);
});
afterAll(() => f?.close());

describe('GeometryService', () => {
  it('keys every non-space character of the text by its offset', async () => {
    const boxes = await f.services.geometry.bbox(owner, p.doc.id);
    const text = p.doc.text!;
    expect(Object.keys(boxes)).toHaveLength(text.replace(/\s/g, '').length);
    for (const [offset, box] of Object.entries(boxes)) expect(box.text).toBe(text[Number(offset)]);
  });

  it('turns rectangles and search hits into spans with offsets, one per line; a page the document lacks is a 400', async () => {
    const g = f.services.geometry;
    const [span] = await g.charsIn(owner, p.doc.id, [p.box('12,50')]);
    expect(p.doc.text!.slice(span.start_offset, span.end_offset)).toBe('12,50');
    expect(span.offset_string).toBe('12,50');
    expect((await refused(g.charsIn(owner, p.doc.id, [{ ...p.box('12,50'), page_index: 5 }]), ValidationError)).fields).toEqual({
      'span.0.page_index': ['The document has 2 page(s); page_index counts from 0.'],
    });
    const hits = await g.search(owner, p.doc.id, 'total');
    expect(hits.map((h) => [h.page_index, h.offset_string])).toEqual([[0, 'Total'], [1, 'Total']]);
  });

  it('answers a page by its number with its words, and says which pages there are', async () => {
    const { page, words } = await f.services.geometry.page(owner, p.doc.id, 2);
    expect([page.number, words.map((w) => w.offset_string)]).toEqual([2, ['Page', 'two', 'Total', 'again']]);
    expect((await refused(f.services.geometry.page(owner, p.doc.id, 3), NotFoundError)).message).toBe('The document has no page 3 (pages 1 to 2).');
  });

  it('keeps documents to members by id; public ones answer anyone by their link; an anonymous caller gets 401 for a missing page too', async () => {
    const g = f.services.geometry;
    await refused(g.bbox(stranger, p.doc.id), NotFoundError);
    await refused(g.page(undefined, p.doc.id, 1), AuthenticationError);
    const [first] = await g.pages(owner, p.doc.id);
    await refused(g.pageImage(undefined, first.id, 'image'), AuthenticationError);
    await refused(g.pageImage(undefined, 999_999, 'image'), AuthenticationError);
    await refused(g.pageImage(stranger, first.id, 'thumbnail'), NotFoundError);
    // This document's pages were stored without images (see fixture.ts).
    expect((await refused(g.pageImage(owner, first.id, 'image'), NotFoundError)).message).toBe('This page has no image yet.');

    await f.services.documents.patch(owner, p.doc.id, { is_public: true });
    const token = (await f.core.repos.documents.findById(p.doc.id))!.public_token!;
    expect((await g.publicPage(token, 1)).words.map((w) => w.offset_string)).toContain('Invoice');
    expect((await refused(g.publicPageImage(token, 1, 'image'), NotFoundError)).message).toBe('This page has no image yet.');
    // By id, public or not, an anonymous caller gets the 401 of any private document.
    await refused(g.page(undefined, p.doc.id, 1), AuthenticationError);
    await refused(g.pageImage(undefined, first.id, 'image'), AuthenticationError);
    await f.services.documents.patch(owner, p.doc.id, { is_public: false });
    await refused(g.publicPage(token, 1), NotFoundError);
  });
});
