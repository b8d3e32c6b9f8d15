// Worker thread that trains one extraction model, so that training never blocks the API's event loop.
// Reports progress (0-100) as it goes and stops between steps when the caller raises the stop flag.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { lowerThisWorkerThread } from '../../pipeline/backgroundPriority.ts';
import { NothingToLearn, trainExtractionModel, TrainingCancelled, type TrainOptions } from './model.ts';
import { serializeModel } from './serialize.ts';
import type { ExtractionSchema, TrainingDocument } from './types.ts';

export const TRAIN_WORKER_ROLE = 'folio-extraction-train';

export interface TrainWorkerData {
  role: typeof TRAIN_WORKER_ROLE;
  documents: TrainingDocument[];
  schema: ExtractionSchema;
  options: Pick<TrainOptions, 'forest' | 'hardNegativeWeight'>;
  /** Int32 flag: 1 asks the worker to stop. Shared, because a busy worker reads no messages. */
  stop: SharedArrayBuffer;
}

export type TrainWorkerMessage =
  | { type: 'progress'; percent: number; stage: string }
  /** The model as a model file (serialize.ts). */
  | { type: 'done'; model: string }
  | { type: 'cancelled' }
  | { type: 'error'; message: string; nothingToLearn: boolean };

function run(port: MessagePort, data: TrainWorkerData): void {
  const stop = new Int32Array(data.stop);
  const send = (message: TrainWorkerMessage) => port.postMessage(message);
  try {
    const model = trainExtractionModel(data.documents, data.schema, {
      ...data.options,
      onProgress: (percent, stage) => send({ type: 'progress', percent, stage }),
      shouldStop: () => Atomics.load(stop, 0) === 1,
    });
    send({ type: 'done', model: serializeModel(model) });
  } catch (err) {
    if (err instanceof TrainingCancelled) send({ type: 'cancelled' });
    else send({ type: 'error', message: err instanceof Error ? err.message : String(err), nothingToLearn: err instanceof NothingToLearn });
  }
}

// Only as a training worker (started by trainInWorker.ts through train.worker.mjs); importing the types is inert.
if (parentPort && (workerData as { role?: string } | null)?.role === TRAIN_WORKER_ROLE) {
  lowerThisWorkerThread();
  run(parentPort, workerData as TrainWorkerData);
}
