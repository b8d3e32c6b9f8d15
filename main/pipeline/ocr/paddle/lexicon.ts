// Words the recognizer nearly read: where PP-OCRv4 misreads a letter ("HARDWAKE", "SIN BHD"), the right one
// is often its second choice at that step (R at 0.34 beside K at 0.62). A word that is no English word
// becomes the English word its second choices spell, when they are likely enough; a pair of words becomes a
// company's legal form ("SDN BHD", "PTE LTD") the same way, even where one of them is a word ("SIN").
// Only substitutions, so every character keeps its place; only letters; nothing else about the line changes.
import { createRequire } from 'node:module';
import type { PlacedChar } from './ctc.ts';

/** A character as the recognizer read it, with its own probability at its strongest step and the others'. */
export type LexChar = Pick<PlacedChar, 'text' | 'peak' | 'alts'>;

export interface LexiconOptions {
  /** A second choice counts when its probability is at least this share of the character read. */
  ratio: number;
  /** At most this many letters of a word change. */
  changes: number;
  /** Words shorter than this are left alone: too many short strings are some word. */
  minLength: number;
}

/**
 * Company legal forms, lower-case: what follows a company's name on invoices and receipts in English-writing
 * countries and their neighbours. The pairs are the forms of two words; the single words are forms of
 * their own (kept as words so that a misread one is mended alone too).
 */
const LEGAL_FORM_PAIRS = ['sdn bhd', 'pte ltd', 'pty ltd', 'pvt ltd', 'co ltd', 'co inc', 'gmbh co', 'sdn berhad'];
const LEGAL_FORM_WORDS = ['bhd', 'sdn', 'berhad', 'ltd', 'llc', 'llp', 'inc', 'corp', 'plc', 'pte', 'pty', 'pvt', 'gmbh', 'plt', 'sarl', 'pllc', 'limited', 'incorporated'];

export class Lexicon {
  private constructor(
    private readonly words: ReadonlySet<string>,
    private readonly pairs: ReadonlySet<string>,
  ) {}

  private static shared: Lexicon | undefined;

  /** The English words of an-array-of-english-words (about 275,000, MIT) and the legal forms above: read
   * once a thread (0.2 s, about 35 MB), however many readers it opens. */
  static english(): Lexicon {
    if (!Lexicon.shared) {
      const list = createRequire(import.meta.url)('an-array-of-english-words') as string[];
      Lexicon.shared = new Lexicon(new Set([...list, ...LEGAL_FORM_WORDS]), new Set(LEGAL_FORM_PAIRS));
    }
    return Lexicon.shared;
  }

  /** A lexicon of the given words and pairs (lower-case), for tests. */
  static of(words: readonly string[], pairs: readonly string[] = []): Lexicon {
    return new Lexicon(new Set(words), new Set(pairs));
  }

  hasWord(word: string): boolean {
    return this.words.has(word.toLowerCase());
  }

  hasPair(first: string, second: string): boolean {
    return this.pairs.has(`${first} ${second}`.toLowerCase());
  }
}

const LETTER = /^\p{L}$/u;
const isUpper = (ch: string) => ch !== ch.toLowerCase();

/** A word's letters: from its first to its last letter, when every character between is one; else undefined. */
function core<T extends LexChar>(word: readonly T[]): { from: number; to: number } | undefined {
  const from = word.findIndex((c) => LETTER.test(c.text));
  if (from < 0) return undefined;
  let to = word.length;
  while (!LETTER.test(word[to - 1].text)) to--;
  for (let i = from; i < to; i++) if (!LETTER.test(word[i].text)) return undefined;
  return { from, to };
}

/** A spelling of a word's letters from the recognizer's second choices, and how much less likely it is. */
interface Spelling {
  letters: string[];
  /** The product of each changed letter's probability over the read one's. */
  odds: number;
}

/**
 * The other spellings of `chars` the recognizer's second choices allow (in the case of the letter read),
 * at most `changes` letters changed, likeliest first.
 */
export function spellings(chars: readonly LexChar[], { ratio, changes }: Pick<LexiconOptions, 'ratio' | 'changes'>): Spelling[] {
  const read = chars.map((c) => c.text);
  const options = chars.map((c) => {
    if (!c.peak || !c.alts) return [];
    const seen = new Set([c.text.toLowerCase()]);
    const out: { text: string; odds: number }[] = [];
    for (const a of c.alts) {
      const lower = a.text.toLowerCase();
      if (!LETTER.test(a.text) || seen.has(lower) || a.p < ratio * c.peak) continue;
      seen.add(lower);
      out.push({ text: isUpper(c.text) ? a.text.toUpperCase() : lower, odds: a.p / c.peak });
    }
    return out;
  });
  const result: Spelling[] = [];
  const walk = (i: number, letters: string[], odds: number, changed: number) => {
    if (i === chars.length) {
      if (changed) result.push({ letters: [...letters], odds });
      return;
    }
    walk(i + 1, letters, odds, changed);
    if (changed >= changes) return;
    for (const o of options[i]) {
      letters[i] = o.text;
      walk(i + 1, letters, odds * o.odds, changed + 1);
      letters[i] = read[i];
    }
  };
  walk(0, [...read], 1, 0);
  return result.sort((a, b) => b.odds - a.odds);
}

/**
 * The words of a line (each an array of characters, in reading order) with misread letters mended from the
 * lexicon: first pairs of words that the second choices make a legal form, then single words that are no
 * word of the lexicon and that the second choices make one. Returns the words, changed characters replaced
 * by copies with the new text.
 */
export function mendWords<T extends LexChar>(words: readonly T[][], lexicon: Lexicon, options: LexiconOptions): T[][] {
  const out = words.map((w) => [...w]);
  const cores = out.map(core);
  // Only called for words with a core.
  const letters = (w: number) => out[w].slice(cores[w]!.from, cores[w]!.to);
  const text = (w: number) => letters(w).map((ch) => ch.text).join('');
  const put = (w: number, spelled: readonly string[]) => {
    const from = cores[w]!.from;
    spelled.forEach((t, i) => {
      const ch = out[w][from + i];
      if (ch.text !== t) out[w][from + i] = { ...ch, text: t };
    });
  };
  for (let w = 0; w + 1 < out.length; w++) {
    if (!cores[w] || !cores[w + 1] || lexicon.hasPair(text(w), text(w + 1))) continue;
    const first = [{ letters: letters(w).map((c) => c.text), odds: 1 }, ...spellings(letters(w), options)];
    const second = [{ letters: letters(w + 1).map((c) => c.text), odds: 1 }, ...spellings(letters(w + 1), options)];
    let best: { a: string[]; b: string[]; odds: number } | undefined;
    for (const a of first) {
      for (const b of second) {
        if ((a === first[0] && b === second[0]) || (best && a.odds * b.odds <= best.odds)) continue;
        if (lexicon.hasPair(a.letters.join(''), b.letters.join(''))) best = { a: a.letters, b: b.letters, odds: a.odds * b.odds };
      }
    }
    if (best) {
      put(w, best.a);
      put(w + 1, best.b);
    }
  }
  out.forEach((_, w) => {
    const c = cores[w];
    if (!c || c.to - c.from < options.minLength || lexicon.hasWord(text(w))) return;
    const found = spellings(letters(w), options).find((s) => lexicon.hasWord(s.letters.join('')));
    if (found) put(w, found.letters);
  });
  return out;
}
