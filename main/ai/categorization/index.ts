// The categorization AI as one import: train a model from a project's categorized documents, predict an
// upload's category, the fallback used before any model exists, evaluation, and model files. No database.
export { evaluateCategorizer } from './evaluate.ts';
export { fallbackCategory } from './fallback.ts';
export { CATEGORIZATION_MODEL_VERSION, NothingToCategorize, predictCategory, trainCategorizer } from './model.ts';
export { CATEGORIZATION_MODEL_FORMAT, parseCategorizer, serializeCategorizer } from './serialize.ts';
export { InvalidModelFile } from '../modelFile.ts';
export type * from './types.ts';
