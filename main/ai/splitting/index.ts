// The splitting AI as one import: learn where documents start from training documents, propose the
// starts in a stream of pages, score proposals, and read and write model files. No database here.
export { evaluateSplitter } from './evaluate.ts';
export { NothingToSplit, proposeSplit, SPLITTER_VERSION, startProbabilities, trainSplitter } from './model.ts';
export { documentPages } from './pages.ts';
export { parseSplitter, serializeSplitter, SPLITTER_FORMAT } from './serialize.ts';
export { InvalidModelFile } from '../modelFile.ts';
export type * from './types.ts';
