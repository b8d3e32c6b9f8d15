// The warm PDF workers (pdfWorkerPool.ts): a document whose OCR outlasts the idle time must not lose the
// pool's last idle worker, or every document of a batch starts a new one (about half a second of CPU).
// A file of its own: the pool's idle workers are module state, and other tests would leave some behind.
import { describe, expect, it, vi } from 'vitest';
import { IDLE_WORKER_MS, pdfWorkerStats } from '../../main/pipeline/pdfWorkerPool.ts';
import { renderPages } from '../../main/pipeline/render.ts';
import { bornDigitalPdf } from '../helpers/ocrPages.ts';

describe('warm PDF workers', () => {
  it('keep the last idle one while a document renders longer than the idle time, and let it go once none is busy', async () => {
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
      await vi.advanceTimersByTimeAsync(IDLE_WORKER_MS);
      expect(pdfWorkerStats()).toMatchObject({ busy: 0, idle: 0 });
    } finally {
      vi.useRealTimers();
    }
  });
});
