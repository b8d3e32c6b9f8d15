// Trains an extraction model in a worker thread (train.worker.ts) and hands back the model and its file.
// Cancelling raises the worker's stop flag; a worker that does not stop in time is terminated.
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../paths.ts';
import { NothingToLearn, TrainingCancelled, type ExtractionModel, type TrainOptions } from './model.ts';
import { parseModel } from './serialize.ts';
import type { TrainWorkerData, TrainWorkerMessage } from './train.worker.ts';
import type { ExtractionSchema, ProgressListener, TrainingDocument } from './types.ts';

const WORKER_URL = workerEntry('trainWorker');
/** How long a cancelled worker may take to reach its next check (one tree, one document) before it is killed. */
const STOP_GRACE_MS = 5_000;

export interface WorkerTrainOptions extends Pick<TrainOptions, 'forest' | 'hardNegativeWeight'> {
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

export interface TrainedModel {
  model: ExtractionModel;
  /** The model file (serialize.ts), ready to store or download. */
  file: string;
}

export function trainInWorker(documents: TrainingDocument[], schema: ExtractionSchema, options: WorkerTrainOptions = {}): Promise<TrainedModel> {
  const { onProgress, signal, ...trainOptions } = options;
  if (signal?.aborted) return Promise.reject(new TrainingCancelled());
  const stop = new SharedArrayBuffer(4);
  const data: TrainWorkerData = { role: 'folio-extraction-train', documents, schema, options: trainOptions, stop };
  const worker = new Worker(WORKER_URL, { workerData: data });
  return new Promise<TrainedModel>((resolve, reject) => {
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
      settle();
      void worker.terminate();
    };
    const onAbort = () => {
      Atomics.store(new Int32Array(stop), 0, 1);
      killTimer = setTimeout(() => finish(() => reject(new TrainingCancelled())), STOP_GRACE_MS);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: TrainWorkerMessage) => {
      switch (message.type) {
        case 'progress':
          onProgress?.(message.percent, message.stage);
          break;
        case 'done':
          finish(() => {
            try {
              resolve({ model: parseModel(message.model), file: message.model });
            } catch (err) {
              reject(err as Error);
            }
          });
          break;
        case 'cancelled':
          finish(() => reject(new TrainingCancelled()));
          break;
        case 'error':
          finish(() => reject(message.nothingToLearn ? new NothingToLearn(message.message) : new Error(`training failed: ${message.message}`)));
          break;
      }
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`training worker exited with code ${code}`))));
  });
}
