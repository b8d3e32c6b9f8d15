// The warm PDF workers (pdfWorkerPool.ts): while documents keep coming (a batch, with short gaps between a
// document's last page rendered and the next document), the pool keeps its workers, or every document of a
// batch starts a new one (about half a second of CPU); once it is left unused, its idle workers end.
// A file of its own: the pool's idle workers are module state, and other tests would leave some behind.
import { describe, expect, it, vi } from 'vitest';
import { IDLE_WORKER_MS, pdfWorkerStats } from '../../main/pipeline/pdfWorkerPool.ts';
import { renderPages } from '../../main/pipeline/render.ts';
import { bornDigitalPdf } from '../helpers/ocrPages.ts';

describe('warm PDF workers', () => {
  it('keep the last idle one while a document renders longer than the idle time, and let it go once the pool is left unused', async () => {
    const pdf = await bornDigitalPdf(3);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const pages = renderPages(pdf, { workers: 1, image: false });
      expect((await pages.next()).done).toBe(false);
      // The document's worker is busy (its pages are not all taken), and one started in reserve idles.
      expect(pdfWorkerStats()).toMatchObject({ busy: 1, idle: 1 });
      await vi.advanceTimersByTimeAsync(3 * IDLE_WORKER_MS);
      expect(pdfWorkerStats()).toMatchObject({ busy: 1, idle: 1 });
      await pages.return(undefined);
      expect(pdfWorkerStats().busy).toBe(0);
      // The document just stopped: the idle worker's time started before that, so it gets one more.
      await vi.advanceTimersByTimeAsync(IDLE_WORKER_MS);
      expect(pdfWorkerStats()).toMatchObject({ busy: 0, idle: 1 });
      await vi.advanceTimersByTimeAsync(IDLE_WORKER_MS);
      expect(pdfWorkerStats()).toMatchObject({ busy: 0, idle: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('start no worker for the next document of a batch when the idle time ran out between two documents', async () => {
    const pdf = await bornDigitalPdf(2);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const first = renderPages(pdf, { workers: 1, image: false });
      expect((await first.next()).done).toBe(false);
      // The first page is read for most of the idle time, then the rest comes and the document's worker is
      // given back: two idle workers (it and the reserve started when it was taken), none busy.
      await vi.advanceTimersByTimeAsync(IDLE_WORKER_MS - 1000);
      for (let r = await first.next(); !r.done; r = await first.next());
      expect(pdfWorkerStats()).toMatchObject({ busy: 0, idle: 2 });
      // The reserve's time runs out while the last page is read and the next job is fetched: it stays,
      // since the pool was used meanwhile.
      await vi.advanceTimersByTimeAsync(5000);
      expect(pdfWorkerStats()).toMatchObject({ busy: 0, idle: 2 });
      const started = pdfWorkerStats().started;
      let pages = 0;
      for await (const _ of renderPages(pdf, { workers: 1, image: false })) pages++;
      expect(pages).toBe(2);
      expect(pdfWorkerStats().started).toBe(started);
      // Left unused, both end within two idle times.
      await vi.advanceTimersByTimeAsync(2 * IDLE_WORKER_MS);
      expect(pdfWorkerStats()).toMatchObject({ busy: 0, idle: 0 });
    } finally {
      vi.useRealTimers();
    }
  });
});
