// The extraction AI's model core as one import: train (in place or in a worker thread), predict,
// evaluate, and read and write model files. No database here: callers pass documents and labels in.
export { evaluate, type EvaluatedDocument, type MatchRule } from './evaluate.ts';
export { MODEL_VERSION, NothingToLearn, predictDocument, trainExtractionModel, TrainingCancelled, type ExtractionModel, type TrainOptions } from './model.ts';
export { DEFAULT_THRESHOLD, type SelectOptions } from './select.ts';
export { InvalidModelFile, MODEL_FORMAT, parseModel, serializeModel } from './serialize.ts';
export { trainInWorker, type TrainedModel, type WorkerTrainOptions } from './trainInWorker.ts';
export type * from './types.ts';
