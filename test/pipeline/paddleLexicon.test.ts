// Misread letters mended from the recognizer's second choices (paddle/lexicon.ts): made-up characters with
// made-up probabilities, the real English word list where the rule depends on it.
import { describe, expect, it } from 'vitest';
import { Lexicon, mendWords, spellings, type LexChar } from '../../main/pipeline/ocr/paddle/lexicon.ts';

const OPTIONS = { ratio: 0.2, changes: 2, minLength: 3 };

/** A word of sure characters, `doubt` giving some of them a probability and second choices: { 6: [0.62, 'R', 0.34] }. */
function word(text: string, doubt: Record<number, [number, ...(string | number)[]]> = {}): LexChar[] {
  return [...text].map((ch, i) => {
    const d = doubt[i];
    if (!d) return { text: ch, peak: 0.99, alts: [] };
    const [peak, ...rest] = d;
    const alts = [];
    for (let k = 0; k < rest.length; k += 2) alts.push({ text: rest[k] as string, p: rest[k + 1] as number });
    return { text: ch, peak, alts };
  });
}
const texts = (words: LexChar[][]) => words.map((w) => w.map((c) => c.text).join('')).join(' ');

describe('mending misread letters from the lexicon', () => {
  const english = Lexicon.english();

  it('takes the English word the second choices spell where the reading is no word', () => {
    expect(texts(mendWords([word('AIK'), word('HUAT'), word('HARDWAKE', { 6: [0.62, 'R', 0.34] })], english, OPTIONS))).toBe('AIK HUAT HARDWARE');
  });

  it('keeps the case of the letter read and the characters around the letters', () => {
    const mended = mendWords([word('(Hardwaxe.', { 7: [0.6, 'R', 0.3] })], english, OPTIONS);
    expect(texts(mended)).toBe('(Hardware.');
    // Only the changed character is a new object; its place stays.
    expect(mended[0][7]).toMatchObject({ text: 'r', peak: 0.6 });
  });

  it('leaves a word of the lexicon, a name no second choice makes a word, and second choices too unlikely', () => {
    expect(texts(mendWords([word('HING', { 0: [0.7, 'K', 0.25] })], english, OPTIONS))).toBe('HING');
    expect(texts(mendWords([word('WAHIN', { 2: [0.6, 'U', 0.3] })], english, OPTIONS))).toBe('WAHIN');
    expect(texts(mendWords([word('HARDWAKE', { 6: [0.9, 'R', 0.09] })], english, OPTIONS))).toBe('HARDWAKE');
  });

  it('leaves numbers, words with digits or inner points, and words shorter than the minimum', () => {
    const words = [word('39.8O', { 4: [0.6, 'D', 0.3] }), word('D.I.Y.', { 2: [0.5, 'L', 0.4] }), word('T0TAL', { 0: [0.5, 'I', 0.4] }), word('AX', { 1: [0.5, 'T', 0.4] })];
    expect(texts(mendWords(words, english, OPTIONS))).toBe('39.8O D.I.Y. T0TAL AX');
  });

  it('makes a pair of words a legal form, even where the first is an English word ("SIN BHD")', () => {
    const mended = mendWords([word('HARDWARE'), word('SIN', { 1: [0.56, 'D', 0.29, 'U', 0.1] }), word('BHI', { 2: [0.75, 'D', 0.17] })], english, OPTIONS);
    expect(texts(mended)).toBe('HARDWARE SDN BHD');
    // "SIN" alone is a word: nothing changes without the legal form after it.
    expect(texts(mendWords([word('SIN', { 1: [0.56, 'D', 0.29] }), word('CITY')], english, OPTIONS))).toBe('SIN CITY');
  });

  it('counts at most `changes` letters a word and takes the likeliest spelling first', () => {
    const chars = word('ABC', { 0: [0.5, 'X', 0.4], 1: [0.5, 'Y', 0.3], 2: [0.5, 'Z', 0.2] });
    const all = spellings(chars, { ratio: 0.2, changes: 2 }).map((s) => s.letters.join(''));
    expect(all[0]).toBe('XBC');
    expect(all).toContain('XYC');
    expect(all).not.toContain('XYZ');
    expect(texts(mendWords([word('QBC', { 0: [0.5, 'A', 0.3, 'X', 0.4] })], Lexicon.of(['abc', 'xbc']), OPTIONS))).toBe('XBC');
  });
});
