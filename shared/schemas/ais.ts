// AI model records (compat.md "AI models"): extraction AIs per category, categorization and splitting AIs
// per project. Requests name the category or the project; the record carries status, progress, the
// evaluation on the test documents and whether it is the active model.
import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import { Ref } from './annotations.ts';

export const ExtractionAiCreate = z.object({
  // Optional in the schema so that a missing one gets the service's "This field is required."
  category: Ref.optional().describe('the category whose training documents the AI learns from (required)'),
  name: z.string().max(255).optional(),
  description: z.string().max(5000).optional(),
});
export type ExtractionAiCreate = z.infer<typeof ExtractionAiCreate>;

export const ProjectAiCreate = z.object({
  project: Ref.optional().describe('the project (also project_id)'),
  project_id: Ref.optional(),
  name: z.string().max(255).optional(),
  description: z.string().max(5000).optional(),
});
export type ProjectAiCreate = z.infer<typeof ProjectAiCreate>;

/** Model file upload (multipart, the file in `file`): extraction AIs name a category, the others a project. */
export const AiUpload = z.object({
  category: Ref.optional(),
  project: Ref.optional(),
  project_id: Ref.optional(),
  name: z.string().max(255).optional(),
  description: z.string().max(5000).optional(),
});
export type AiUpload = z.infer<typeof AiUpload>;

export const AiPatch = z.object({
  name: z.string().max(255).optional(),
  description: z.string().max(5000).optional(),
  active: z.boolean().optional().describe('true makes a finished model the one in use; false stops using it'),
});
export type AiPatch = z.infer<typeof AiPatch>;
/** PUT replaces what a client may change: the name (required) and the description (empty when left out);
 * `active` is an action, so leaving it out leaves it as it is. */
export const AiPut = AiPatch.extend({ name: z.string().max(255) });

export const AiStatus = z.enum(['queued', 'training', 'done', 'failed']);

export const AiScore = z.object({
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
  true_positives: z.number().int(),
  false_positives: z.number().int(),
  false_negatives: z.number().int(),
});

const NearMisses = z
  .number()
  .int()
  .optional()
  .describe('wrong predictions close to an expected text of their label (see near_miss_rule); they also count in false positives and negatives');

export const AiScoreWithNearMisses = AiScore.extend({ near_misses: NearMisses });

export const AiLabelScore = AiScoreWithNearMisses.extend({ label: Id, name: z.string() });

export const AiFieldError = z.object({
  label: Id,
  name: z.string().describe("the label's name"),
  kind: z
    .enum(['near_miss', 'wrong', 'missed', 'extra'])
    .describe('near_miss: found text close to the expected; wrong: other text found; missed: nothing found; extra: found where nothing was expected'),
  expected: z.string().nullable().describe('the text of the accepted annotation; null for extra'),
  found: z.string().nullable().describe("the AI's text; null for missed"),
  distance: z.number().int().nullable().describe('edits between found and expected (white space collapsed, case ignored)'),
  right_by_value: z.boolean().optional().describe('found is the expected value by the by-value rule (by_value.rule): the right value at another place'),
});

export const AiDocumentResult = z.object({
  document: Id.describe('the test document'),
  name: z.string(),
  right: z.number().int().describe('annotations found exactly right'),
  near_misses: z.number().int(),
  right_by_value: z.number().int().optional().describe('expected values found by value, wherever they stand (by_value.rule)'),
  errors: z.array(AiFieldError).describe('the wrong labels of this document, expected beside found'),
});

export const AiByValue = z.object({
  rule: z.string().describe('when a prediction is right by value'),
  overall: AiScore.describe('micro-averaged precision, recall and F1 by value'),
  labels: z.array(AiScore.extend({ label: Id, name: z.string() })).describe('the same per label'),
});

export const AiTestSet = z.object({
  documents: z.number().int(),
  values: z.number().int().describe('expected values (accepted annotations) of the test documents'),
  right_by_value: z.number().int(),
  interval: z.tuple([z.number(), z.number()]).nullable().describe('95 % Wilson score interval of the by-value recall'),
  enough: z.boolean().describe('whether the test set is big enough to decide (rule)'),
  warning: z.string().nullable().describe('why the test set decides nothing; null when it is enough'),
  rule: z.string(),
});

export const AiEvaluation = z
  .object({
    score: z.number().describe('what decides which model is active: F1, or accuracy for categorization'),
    metric: z.enum(['f1', 'accuracy']),
    documents: z.number().int().describe('test documents (dataset_status 3) evaluated'),
    rule: z.string().optional().describe('extraction: the matching rule of the F1 figures'),
    overall: AiScoreWithNearMisses.optional().describe('extraction and splitting: micro-averaged precision, recall, F1'),
    labels: z.array(AiLabelScore).optional().describe('extraction: the figures per label'),
    near_miss_rule: z.string().optional().describe('extraction: when a wrong prediction counts as a near miss'),
    document_results: z.array(AiDocumentResult).optional().describe('extraction: per test document, the right count and the wrong labels'),
    by_value: AiByValue.optional().describe('extraction: the same predictions scored by normalized value wherever they stand, beside the position-based figures'),
    test_set: AiTestSet.optional().describe('extraction: whether the test set is big enough to decide, with a warning when not'),
  })
  .catchall(z.unknown())
  .describe('per label (extraction), per category (categorization) or per split point (splitting) details besides');

export const AiActivation = z
  .object({
    activated: z.boolean().describe('whether it was made active when its training ended'),
    reason: z.string().describe('why: its score against the active AI\'s on the same test documents, "no test documents" or "no active AI"'),
    score: z.number().nullable().describe('its score on the test documents; null when there were none'),
    active_ai: Id.nullable().describe('the AI that was active then; null when there was none'),
    active_score: z.number().nullable().describe('that AI\'s score on the same test documents'),
    test_documents: z.number().int().nullable(),
  })
  .describe('why the AI was or was not made active at the end of its training (or upload); docs/continuous-learning.md');

export const AiModel = z.object({
  id: Id,
  kind: z.enum(['extraction', 'categorization', 'splitting']),
  project: Id,
  project_id: Id,
  category: Id.nullable(),
  name: z.string(),
  description: z.string(),
  status: AiStatus,
  progress: z.number().int().describe('0 to 100'),
  stage: z.string().nullable(),
  error: z.string().nullable(),
  active: z.boolean(),
  origin: z.enum(['trained', 'uploaded']),
  evaluation: AiEvaluation.nullable(),
  training: z.record(z.string(), z.unknown()).nullable(),
  training_seconds: z.number().nullable(),
  activation: AiActivation.nullable().describe('null until it was trained, and for AIs trained before Folio recorded it'),
  trigger: z.enum(['manual', 'continuous-learning']).describe('who asked for the training: someone (or an upload), or continuous learning after reviews'),
  file_url: z.string().nullable().describe('download of the model file once it is done'),
  model_size: z.number().int().nullable(),
  created_by: Id.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
});
export type AiModel = z.infer<typeof AiModel>;
