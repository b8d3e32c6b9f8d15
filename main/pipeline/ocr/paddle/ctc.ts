// CTC greedy decoding of the PP-OCR recognizer's output, keeping where each character was read: the
// recognizer emits one class distribution per time step (a column band of the line image, 8 pixels of
// its 48-pixel-high input), and a character is the run of steps whose best class it is. The recognizer
// rarely emits the space class between English words, so word breaks are restored from the ink between
// the characters' positions (spaceBreaks).

export interface CtcChar {
  /** Class index (1.. into the dictionary; `space` for the space class). */
  index: number;
  /** First and last time step of the character's run. */
  first: number;
  last: number;
  /** Mean of the character's best-class probabilities over its run. */
  prob: number;
}

/**
 * Greedy decoding of one line: `probs` holds `steps` distributions of `classes` values from `offset`.
 * Class 0 is CTC's blank; a repeated class is one character unless a blank separates the repeats.
 */
export function ctcGreedy(probs: Float32Array, steps: number, classes: number, offset = 0): CtcChar[] {
  const out: (CtcChar & { sum: number; n: number })[] = [];
  let previous = 0;
  let current: (CtcChar & { sum: number; n: number }) | undefined;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = probs[base];
    for (let k = 1; k < classes; k++) {
      const p = probs[base + k];
      if (p > bestP) {
        bestP = p;
        best = k;
      }
    }
    if (best !== 0 && best === previous && current) {
      current.last = t;
      current.sum += bestP;
      current.n++;
    } else if (best !== 0) {
      current = { index: best, first: t, last: t, prob: 0, sum: bestP, n: 1 };
      out.push(current);
    } else {
      current = undefined;
    }
    previous = best;
  }
  return out.map(({ index, first, last, sum, n }) => ({ index, first, last, prob: sum / n }));
}

/** A character of a line with its horizontal position in the line image (pixels of the recognizer's input). */
export interface PlacedChar {
  text: string;
  /** Centre of the character's run. */
  center: number;
  prob: number;
}

export interface SpacingOptions {
  /** An unlit gap (no ink across the line's middle) wider than this many letter heights is a space... */
  inkGap: number;
  /** ...and where the line has no measurable ink, a distance between neighbouring characters' centres wider
   * than this many line-image heights. */
  pitch: number;
  /** Lines printed in a fixed-pitch font (fixedPitchCell) break where two centres lie more than `space` cells
   * apart; without it every line is measured by its ink. */
  fixedPitch?: { space: number } & FixedPitchOptions;
}

export interface FixedPitchOptions {
  /** A line is fixed-pitch when at least this share of its centre distances is a whole number of cells... */
  regular: number;
  /** ...within this share of a cell... */
  tolerance: number;
  /** ...and it has at least this many characters. */
  minChars: number;
}

/**
 * The character cell of a line printed in a fixed-pitch font (a till's printer), or undefined for a
 * proportional one: in a fixed-pitch font every character, a narrow "l" as a wide "M", sits in a cell of one
 * width, so the distances between neighbouring centres are whole numbers of cells (one within a word, two or
 * more across a space).
 */
export function fixedPitchCell(chars: readonly PlacedChar[], { regular, tolerance, minChars }: FixedPitchOptions): number | undefined {
  if (chars.length < minChars) return undefined;
  const d = chars.slice(1).map((c, i) => c.center - chars[i].center);
  // The mean of the distances within words (below 1.5 medians), not the median itself: centres fall on a
  // half time step (4 pixels), so a 28-pixel cell reads as 24 and 32 in turn, and the median would be one
  // of them, a seventh off.
  const median = [...d].sort((a, b) => a - b)[d.length >> 1];
  const inner = d.filter((x) => x < 1.5 * median);
  const cell = inner.reduce((a, x) => a + x, 0) / inner.length;
  if (!(cell > 0)) return undefined;
  const whole = d.filter((x) => Math.round(x / cell) >= 1 && Math.abs(x / cell - Math.round(x / cell)) < tolerance).length;
  return whole >= regular * d.length ? cell : undefined;
}

/**
 * Where words break: before character i when the widest run of columns without ink between the centres of
 * characters i-1 and i is wider than a share of the letters' height (measured from the ink: the line image
 * holds the detector's margins too, and they vary). Centre distances alone are coarse (one time step is a
 * sixth of the line's height) and mislead in proportional fonts (a narrow "i" beside a wide "M"), so they
 * decide only for lines without ink contrast, and for fixed-pitch lines. The model's own spaces
 * (`modelSpaces`, by index of the character after them) break too. The thresholds were measured on receipts
 * apart from the OCR benchmark's (test/bench/paddleSpacing.bench.ts), not tuned per receipt.
 */
export function spaceBreaks(chars: PlacedChar[], heights: { line: number; letters: number }, ink: Uint8Array | undefined, options: SpacingOptions, modelSpaces: ReadonlySet<number> = new Set()): boolean[] {
  // In a fixed-pitch line a narrow letter leaves wide unlit columns on both sides ("Wor ld", "Invoi ce"), so
  // the cells decide there, not the ink; between two digits both must agree ("174.9 0" was read for an
  // amount). On the spacing benchmark's receipts 166 of 1221 lines were found fixed-pitch; wrong breaks
  // 145 -> 128, lines entirely right 1112 -> 1126 (21 lines mended, 7 broken).
  const cell = options.fixedPitch && fixedPitchCell(chars, options.fixedPitch);
  const inkBreak = (i: number) => {
    const a = chars[i - 1].center;
    const b = chars[i].center;
    return ink ? widestGap(ink, a, b) / heights.letters > options.inkGap : (b - a) / heights.line > options.pitch;
  };
  const breaks: boolean[] = [];
  chars.forEach((c, i) => {
    let br: boolean;
    if (i === 0 || neverBreaks(chars, i)) br = false;
    // An initialism's middle letter after its point stays with it ("D.I.Y.", "U.S.A."): the point and a narrow
    // letter leave a wide unlit gap, yet such letters are printed tight (25 tight, 4 spaced in the transcripts
    // of the development receipts). Only when the letter before the point starts a word ("MR. D.I.Y.").
    else if (insideInitialism(chars, i) && (breaks[i - 2] || !isLetter(chars, i - 3))) br = false;
    else if (modelSpaces.has(i)) br = true;
    // A bracket opened after a word starts a word of its own ("MOTOR (SUNGAI", "D.I.Y. (M)"): 81 of 96 such
    // pairs on the spacing benchmark's receipts; its ink leans on the letter before, so the gap often hides.
    else if (c.text === '(' && /[\p{L}.]/u.test(chars[i - 1].text)) br = true;
    // An ampersand between words stands apart ("HARDWARE & ELECTRICAL"); between single letters it joins
    // them ("T&C", "H&F"). In the transcripts of the development receipts: 72 spaced, 2 tight between words.
    else if ((c.text === '&' && isWordEnd(chars, i - 1)) || (chars[i - 1].text === '&' && isWordStart(chars, i))) br = true;
    else if (cell && options.fixedPitch) br = (c.center - chars[i - 1].center) / cell > options.fixedPitch.space && (!bothDigits(chars, i) || inkBreak(i));
    else br = inkBreak(i);
    breaks.push(br);
  });
  return breaks;
}

const LETTER = /^\p{L}$/u;
const isLetter = (chars: readonly { text: string }[], i: number) => LETTER.test(chars[i]?.text ?? '');
/** Whether characters i-1 and i are letters: the end of a word of two letters or more. */
const isWordEnd = (chars: readonly { text: string }[], i: number) => isLetter(chars, i) && isLetter(chars, i - 1);
/** Whether characters i and i+1 are letters: the start of a word of two letters or more. */
const isWordStart = (chars: readonly { text: string }[], i: number) => isLetter(chars, i) && isLetter(chars, i + 1);
const bothDigits = (chars: readonly { text: string }[], i: number) => DIGIT.test(chars[i].text) && DIGIT.test(chars[i - 1].text);

/** Whether character i is a single letter between points after a letter: the I of "D.I.Y.", the S of "U.S.A.". */
export function insideInitialism(chars: readonly { text: string }[], i: number): boolean {
  return chars[i - 1]?.text === '.' && isLetter(chars, i) && chars[i + 1]?.text === '.' && isLetter(chars, i - 2);
}

const DIGIT = /^\d$/;
const POINT = /^[.,]$/;
/** Marks that join the parts of an amount, a date, a time or a phone number: "39.80", "18/03/18", "15:17". */
const SEPARATOR = /^[.,/:-]$/;

/**
 * Whether characters i-1 and i are both parts of one number around a separator ("39.80", "1,250.00",
 * "18/03/18", "15:17", "03-3271"): a point has no ink across the line's middle and the others little, so
 * the ink gap measured around them looks like a space ("39. 80") though numbers never break there.
 * Measured on the spacing benchmark's receipts (test/bench/paddleSpacing.bench.ts).
 */
export function insideNumber(chars: readonly { text: string }[], i: number): boolean {
  const t = (k: number) => chars[k]?.text ?? '';
  if (SEPARATOR.test(t(i))) return DIGIT.test(t(i - 1)) && DIGIT.test(t(i + 1));
  if (SEPARATOR.test(t(i - 1))) return DIGIT.test(t(i - 2)) && DIGIT.test(t(i));
  return false;
}

/**
 * Where no word ever breaks, whatever the ink or the model's own space says: inside a number, before a point
 * or comma (it ends the word before it: "D.I.Y.", "BHD,"), just inside brackets ("( SUNGAI" was read for
 * "(SUNGAI"; none of 243 such pairs on the spacing benchmark's receipts has a space).
 */
export function neverBreaks(chars: readonly { text: string }[], i: number): boolean {
  return insideNumber(chars, i) || POINT.test(chars[i].text) || chars[i - 1]?.text === '(' || chars[i].text === ')';
}

/** The longest run of columns without ink strictly between two positions. */
export function widestGap(ink: Uint8Array, from: number, to: number): number {
  let best = 0;
  let run = 0;
  const end = Math.min(ink.length, Math.floor(to));
  for (let x = Math.max(0, Math.ceil(from)); x < end; x++) {
    if (ink[x]) run = 0;
    else if (++run > best) best = run;
  }
  return best;
}
