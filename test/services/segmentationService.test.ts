// SegmentationService's rules without HTTP: segmentation is for members of the project the document
// belongs to (404 otherwise), one list of elements per page, and nothing to segment before processing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../main/domain/errors.ts';
import type { ProjectRow, UserRow } from '../../main/store/schema.ts';
import { openFixture, refused, type Fixture } from './fixture.ts';

let f: Fixture;
let owner: UserRow;
let stranger: UserRow;
let project: ProjectRow;

beforeAll(async () => {
  f = await openFixture();
  owner = await f.user('owner@segmentation.test');
  stranger = await f.user('stranger@segmentation.test');
  project = await f.project(owner, 'Segmentation');
});
afterAll(() => f?.close());

describe('SegmentationService', () => {
  it('segments each page of a processed document into labelled elements over its text', async () => {
    const p = await f.processed(owner, { project: project.id }, [['Invoice 2024-001', 'Total 12,50 EUR'], ['Second page']]);
    const pages = await f.services.segmentation.document(owner, project.id, p.doc.id);
    expect(pages).toHaveLength(2);
    // Without page images (see fixture.ts) boxes stay in points, origin top left, and there are no figures.
    const covered = (page: number, words: string) => {
      const b = p.box(words);
      const [top, bottom] = [842 - b.y1, 842 - b.y0];
      return pages[page].some((e) => e.x0 <= b.x0 + 1 && e.x1 >= b.x1 - 1 && e.y0 <= top + 1 && e.y1 >= bottom - 1);
    };
    expect([covered(0, 'Invoice 2024-001'), covered(0, 'Total 12,50 EUR'), covered(1, 'Second page')]).toEqual([true, true, true]);
    expect(pages.flat().filter((e) => !['text', 'title', 'list', 'table'].includes(e.label))).toEqual([]);
  });

  it('has nothing to segment before processing', async () => {
    const queued = await f.upload(owner, { project: project.id });
    expect(await f.services.segmentation.document(owner, project.id, queued.id)).toEqual([]);
  });

  it('answers 404 to a stranger and for a document of another project', async () => {
    const { doc } = await f.processed(owner, { project: project.id });
    const other = await f.project(owner, 'Another');
    await refused(f.services.segmentation.document(stranger, project.id, doc.id), NotFoundError);
    expect((await refused(f.services.segmentation.document(owner, other.id, doc.id), NotFoundError)).message).toBe('Document not found.');
  });
});
