// The splitting AI's library interface: pages in, page indexes where documents start out. No database
// here: the caller (the splitting AI service) loads documents' pages into these shapes.
import type { CharBox } from '../../domain/geometry.ts';
import type { ForestModel } from '../extraction/forest.ts';
import type { LabelScore } from '../extraction/types.ts';

/** One page: its text (lines joined by "\n"), its non-space character boxes (page_index 0, PDF points,
 * origin bottom left) and its size in PDF points. */
export interface SplitPage {
  text: string;
  chars: CharBox[];
  width: number;
  height: number;
}

/** A training document: pages[0] starts a document, the others continue it. */
export interface SplittingDocument {
  id: number | string;
  pages: SplitPage[];
}

export interface SplittingModel {
  version: number;
  /** The feature columns the forest reads, by name: a file made with other features is refused. */
  features: string[];
  /** A page whose start probability reaches this starts a new document. */
  threshold: number;
  /** Two classes: 0 the page continues the previous one's document, 1 it starts a new document. */
  forest: ForestModel;
  training: { documents: number; pages: number; seconds: number };
}

export interface SplitProposal {
  /** Page indexes (0-based) where a new document starts; always begins with 0. */
  starts: number[];
  /** Per start, the model's probability that a document starts there (1 for page 0), 0..1. */
  confidence: number[];
}

/** A run of pages with the indexes where its documents really start (beginning with 0). */
export interface SplitStream {
  pages: SplitPage[];
  starts: number[];
}

/** Precision, recall and F1 of the split points found, over every stream. */
export interface SplitEvaluation extends LabelScore {
  streams: number;
}

export interface SplitterOptions {
  /** Seeds the forest and the synthetic document pairs (default 1). */
  seed?: number;
}
