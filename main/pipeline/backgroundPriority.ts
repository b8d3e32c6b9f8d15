// Background work yields the CPU to the thread that answers the API. On a 2-core machine, OCR processes
// and rendering threads otherwise take equal turns with it, and a reviewer's request waits behind a batch
// of scans (document detail p95 went from 6 ms quiet to 140 ms under 50 uploads). Background threads and
// processes run at a higher nice value: they still get every idle cycle, the API thread gets the CPU
// first when it wants it.
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** Nice value of OCR, rendering, training and conversion work (0 is normal, 19 the lowest priority). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the priority of the calling worker thread only. On Linux a nice value belongs to a thread
 * (NPTL), so `setpriority(0)` from a worker leaves the main thread alone; elsewhere it would lower the
 * whole process, so nothing is done there. Threads this one starts later inherit it.
 */
export function lowerThisWorkerThread(): void {
  if (isMainThread || process.platform !== 'linux') return;
  try {
    os.setPriority(BACKGROUND_NICE);
  } catch {
    // Not permitted (some sandboxes): the work still runs, at normal priority.
  }
}

/** Lowers the priority of a child process that does background work (tesseract, LibreOffice). */
export function lowerChildProcess(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, BACKGROUND_NICE);
  } catch {
    // The process may already have ended, or the platform refuses: either way nothing to undo.
  }
}
