// How an upload without a category is categorized before the project has a trained categorization AI:
//
// - A project with exactly one category: that category.
// - Otherwise, the category whose name occurs most often in the document's text, counting the words of
//   the name (at least 3 letters, not a common German or English function word such as "und" or "the",
//   not a word every category name shares) as whole words, case-insensitively, with umlauts folded
//   ("Gebühren", "GEBUEHREN" and "Gebuehren" are one word).
// - No category when no name word occurs, when two categories tie, or when the project has none.
//
// The fallback's confidence is always null (it has no measure of certainty); its scores count the name
// word occurrences per category.
import { foldText, wordsOf } from './features.ts';
import type { CategorizationDocument, CategoryInfo, CategoryPrediction } from './types.ts';

const FUNCTION_WORDS = new Set(
  'und oder der die das den dem des ein eine einer eines fuer mit von vom zum zur bei aus nach ueber the and for with from of not non all new old'.split(' '),
);

/** The words of a category name that can speak for it. */
const nameWords = (name: string) => new Set(wordsOf(foldText(name)).filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w)));

export function fallbackCategory(doc: CategorizationDocument, categories: readonly CategoryInfo[]): CategoryPrediction {
  const occurrences = new Map<string, number>();
  for (const word of wordsOf(foldText(doc.text))) occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
  const names = categories.map((c) => nameWords(c.name));
  // A word in every name ("Rechnung" of "Rechnung Eingang" and "Rechnung Ausgang") tells nothing apart.
  const shared = categories.length > 1 ? [...names[0]].filter((w) => names.every((n) => n.has(w))) : [];
  const scores: Record<string, number> = {};
  categories.forEach((c, i) => {
    scores[c.id] = [...names[i]].reduce((sum, w) => sum + (shared.includes(w) ? 0 : (occurrences.get(w) ?? 0)), 0);
  });
  const result = (categoryId: number | null): CategoryPrediction => ({ categoryId, confidence: null, scores, method: 'fallback' });

  if (categories.length === 1) return result(categories[0].id);
  const top = Math.max(0, ...Object.values(scores));
  const leaders = categories.filter((c) => scores[c.id] === top);
  return result(top > 0 && leaders.length === 1 ? leaders[0].id : null);
}
