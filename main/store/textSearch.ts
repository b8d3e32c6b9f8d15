// The documents list's `?q=` in each store's full-text index (migration 0010): SQLite's FTS5 table, or
// PostgreSQL's GIN index over a tsvector. Both take every word of q (any order, each as a prefix: `invo`
// finds "invoice"), with case and diacritics folded; user input can never be a syntax error in either.
import { sql, type RawBuilder } from 'kysely';
import { PG_TEXT_VECTOR } from './migrations/0010_document_text_search.ts';

/** At most this many words of `?q=` are searched (a pasted page must not become a huge query). */
const MAX_SEARCH_TERMS = 32;

/** q's words: white-space separated, each with a letter or digit (others would tokenize to nothing). */
function searchTerms(raw: string): string[] {
  return raw
    .split(/\s+/u)
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, MAX_SEARCH_TERMS);
}

/**
 * `?q=` as an FTS5 query: every word is quoted (a quote inside doubled), so FTS5 operators and
 * punctuation in user input are plain text, and matches as a prefix. Null: no word left.
 */
export function ftsQuery(raw: string): string | null {
  const terms = searchTerms(raw).map((t) => `"${t.replace(/"/g, '""')}"*`);
  return terms.length ? terms.join(' ') : null;
}

/** What unaccent folds that Unicode decomposition does not. */
const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/**
 * `?q=` as a PostgreSQL tsquery, folded as folio_search_text folds the text (diacritics off, punctuation
 * splits words): each word is its letter-and-digit tokens in a row (`<->`), the last one a prefix (`:*`),
 * as FTS5 reads `"a-b"*`; words are joined with `&`. The tokens hold only letters and digits, so nothing
 * in them is tsquery syntax. Null: no word left.
 */
export function tsQuery(raw: string): string | null {
  const words = searchTerms(raw)
    .map((t) => t.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/[ßæœøłđðþı]/g, (c) => FOLDED[c]))
    .map((t) => t.match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((tokens) => tokens.length)
    .map((tokens) => tokens.map((tok, i) => (i === tokens.length - 1 ? `${tok}:*` : tok)).join(' <-> '));
  return words.length ? words.map((w) => `(${w})`).join(' & ') : null;
}

/** Whether documents.text holds every word of q (null: q has no word to search). */
export function textMatches(postgres: boolean, raw: string): RawBuilder<boolean> | null {
  if (postgres) {
    const query = tsQuery(raw);
    return query ? sql<boolean>`${PG_TEXT_VECTOR} @@ to_tsquery('simple'::regconfig, ${query})` : null;
  }
  const match = ftsQuery(raw);
  return match ? sql<boolean>`documents.id in (select rowid from documents_fts where documents_fts match ${match})` : null;
}
