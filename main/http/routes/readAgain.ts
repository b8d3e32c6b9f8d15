// Reading again (issue 10): a whole document as a durable job, one drawn region at once; and moving a waiting
// document ahead of the batches (a reviewer opened it).
import { route, type RouteSpec } from '../route.ts';
import { ReadAgainRequest, ReadRegionRequest, ReadRegionResponse } from '../../../shared/schemas/readAgain.ts';
import { DocumentDetail } from '../../../shared/schemas/documents.ts';
import { documentOut } from '../../mappers/documents.ts';
import { readRegionOut } from '../../mappers/readAgain.ts';

export const readAgainRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v3/documents/:id/prioritize/',
    tag: 'documents',
    summary: 'Move a waiting document ahead of every batch (a reviewer opened it)',
    description:
      'The document\'s queued steps (OCR, analysis) run before any other upload\'s that nobody waits for, as a sync upload\'s do. ' +
      'Steps already running or ended are left as they are; the answer is the document as it stands. The review window calls it when ' +
      'it opens a document that is not ready yet.',
    response: DocumentDetail,
    status: 200,
    async handler(ctx) {
      const { documents } = ctx.core.services;
      const doc = await documents.prioritize(ctx.user, ctx.id());
      return documentOut(await documents.detail(ctx.user, doc.id));
    },
  }),
  route({
    method: 'post',
    path: '/api/v3/documents/:id/read-again/',
    tag: 'documents',
    summary: 'Read a processed document again (OCR of its scanned pages), optionally with other OCR languages',
    description:
      'Queues a job like processing: the status goes to 0 (queuing for OCR), 10, then, when the category has an active extraction AI, ' +
      'through extraction, and back to 2 (Done). Pages that had no text layer are read by OCR again; pages with one keep their text. ' +
      'Annotations keep their boxes and take the new text inside them; machine annotations awaiting review are extracted anew when an ' +
      'extraction AI is active. `ocr_languages` (spec names or codes) applies to this reading only. A document that is not Done is a 400.',
    body: ReadAgainRequest,
    response: DocumentDetail,
    status: 202,
    async handler(ctx) {
      const { readAgain, documents } = ctx.core.services;
      const doc = await readAgain.readDocument(ctx.user, ctx.id(), ctx.body);
      return documentOut(await documents.detail(ctx.user, doc.id));
    },
  }),
  route({
    method: 'post',
    path: '/api/v3/documents/:id/read-region/',
    tag: 'documents',
    summary: 'Read one region of a page again at a higher resolution (600 dpi), and label what it says',
    description:
      'For a box where OCR found no text. The region is rendered at 600 dpi and read on its own. When text is found it joins the ' +
      'document text where it reads (the characters of the old reading inside the region give way), every annotation\'s offsets move ' +
      'with the text, and with `label` an annotation is made of it. When nothing is found (`found: false`) nothing changes: the reviewer ' +
      'may type the value with `POST documents/<id>/annotations/` and `is_typed: true`. ' +
      'With `dry_run: true` the region is read and nothing is written: the answer says what was found, to be confirmed by a second ' +
      'request (with `label`) or dropped.',
    body: ReadRegionRequest,
    response: ReadRegionResponse,
    status: 200,
    async handler(ctx) {
      const result = await ctx.core.services.readAgain.readRegion(ctx.user, ctx.id(), ctx.body);
      return readRegionOut(result);
    },
  }),
];
