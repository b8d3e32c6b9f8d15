// The categorization AI's library interface: what training, prediction and evaluation take and give. No
// database here: the caller (the category AI service) loads a project's documents and categories into these.
import type { CharBox } from '../../domain/geometry.ts';
import type { PageSize } from '../extraction/types.ts';

export interface CategorizationDocument {
  id: number | string;
  text: string;
  /** Character boxes (main/pipeline/textLayout.ts); optional: without them only the text is read. */
  chars?: CharBox[];
  /** Page sizes in PDF points, by page index. */
  pageSizes?: PageSize[];
}

export type LabelledDocument = CategorizationDocument & { categoryId: number };

export interface CategoryInfo {
  id: number;
  name: string;
}

export interface CategoryPrediction {
  /** null: no category could be chosen (fallback only; a trained model always names one). */
  categoryId: number | null;
  /** 0..1 for the model; null for the fallback, which has no measure of certainty. */
  confidence: number | null;
  /**
   * Keyed by category id, every category the model (or the fallback) knows. Model: the probability of each
   * category (0 for categories without training documents). Fallback: how often the category's name words
   * occur in the text.
   */
  scores: Record<string, number>;
  method: 'model' | 'fallback';
}

/** Multinomial logistic regression over the tf-idf vector: one weight row per class. */
export interface SoftmaxClassifier {
  kind: 'softmax';
  weights: number[][];
  bias: number[];
}

/** One category with training documents: cosine similarity to its centroid, scaled by `reference`. */
export interface SimilarityClassifier {
  kind: 'similarity';
  centroid: number[];
  /** Median similarity of a training document to the centroid of the others; null with one document. */
  reference: number | null;
}

export interface CategorizationModel {
  version: number;
  /** Every category of the project at training time, with or without training documents. */
  categories: CategoryInfo[];
  /** The category ids the model can predict (those with training documents), in classifier row order. */
  classes: number[];
  /** The vector space: terms and their inverse document frequencies, by column. */
  features: { vocabulary: string[]; idf: number[] };
  classifier: SoftmaxClassifier | SimilarityClassifier;
  training: { documents: number; seconds: number; perCategory: Record<string, number> };
}

export interface CategorizationEvaluation {
  /** Share of documents whose predicted category is their category (0 with no documents). */
  accuracy: number;
  documents: number;
  /** Keyed by the true category id. */
  perCategory: Record<string, { name: string; correct: number; total: number }>;
  /** confusion[true category id][predicted category id, or "null"] = number of documents. */
  confusion: Record<string, Record<string, number>>;
}
