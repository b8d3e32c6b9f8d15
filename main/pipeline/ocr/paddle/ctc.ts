// CTC decoding of the PP-OCR recognizer's output, keeping where each character was read: the recognizer
// emits one class distribution per time step (a column band of the line image, 8 pixels of its
// 48-pixel-high input), and a character is a run of steps of its class. The greedy path (each step's best
// class) gives the characters; a prefix beam search adds the spaces the recognizer spreads too thin for
// the greedy path (ctcDecode). It still leaves out many spaces between English words, so word breaks are
// also restored from the ink between the characters' positions (spaceBreaks).

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
  const { best, bestP } = scanSteps(probs, steps, classes, offset, Infinity);
  return runsOf(best, bestP);
}

interface StepScan {
  /** Each step's most likely class (0 blank) and its probability: the greedy path. */
  best: Int32Array;
  bestP: Float32Array;
  /** The classes other than blank at `floor` or more: those of step t are cands[starts[t]..starts[t+1]). */
  starts: Int32Array;
  cands: number[];
}

/** One pass over every step's distribution, for the greedy path and the beam search's candidates. */
function scanSteps(probs: Float32Array, steps: number, classes: number, offset: number, floor: number): StepScan {
  const best = new Int32Array(steps);
  const bestP = new Float32Array(steps);
  const starts = new Int32Array(steps + 1);
  const cands: number[] = [];
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    starts[t] = cands.length;
    let k0 = 0;
    let p0 = probs[base];
    for (let k = 1; k < classes; k++) {
      const p = probs[base + k];
      if (p >= floor) cands.push(k);
      if (p > p0) {
        p0 = p;
        k0 = k;
      }
    }
    best[t] = k0;
    bestP[t] = p0;
  }
  starts[steps] = cands.length;
  return { best, bestP, starts, cands };
}

/**
 * The characters of a path, a class for each step (0 blank): a run of one class is one character, with its
 * first and last step and the mean of `prob` over the run.
 */
function runsOf(path: Int32Array, prob: Float32Array): CtcChar[] {
  const out: CtcChar[] = [];
  let sum = 0;
  let n = 0;
  for (let t = 0; t <= path.length; t++) {
    const k = t < path.length ? path[t] : 0;
    if (n && (k === 0 || k !== path[t - 1])) {
      out[out.length - 1].prob = sum / n;
      n = 0;
    }
    if (k === 0 || (t > 0 && k === path[t - 1])) {
      if (k !== 0) {
        out[out.length - 1].last = t;
        sum += prob[t];
        n++;
      }
      continue;
    }
    out.push({ index: k, first: t, last: t, prob: 0 });
    sum = prob[t];
    n = 1;
  }
  return out;
}

/** A character of a line with its horizontal position in the line image (pixels of the recognizer's input). */
export interface PlacedChar {
  text: string;
  /** Centre of the character's run. */
  center: number;
  prob: number;
  /** The character's probability at its strongest step, and the other classes' there (paddle/lexicon.ts). */
  peak?: number;
  alts?: Alternative[];
}

/** A class the recognizer gave some probability at a character's strongest step. */
export interface Alternative {
  text: string;
  p: number;
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

/** Prefix beam search settings (ctcBeam). */
export interface BeamOptions {
  /** Prefixes kept after each time step. */
  width: number;
  /** Classes under this probability at a step are not extended there (the blank always is). */
  floor: number;
}

export const BEAM_DEFAULTS: Readonly<BeamOptions> = Object.freeze({ width: 8, floor: 0.01 });

/**
 * CTC prefix beam search: the label sequence with the highest total probability summed over every path that
 * collapses to it, where greedy decoding takes the single most likely path. The two differ where a character
 * is spread thin: a narrow "I" at 0.4 over two steps, blank at 0.6 each, is dropped by the greedy path
 * (blank, blank: 0.36) though the paths that emit it weigh 0.64; PP-OCR's recognizer spreads its space class
 * that way. Each character's steps and probability come from the best path of the chosen labels (ctcAlign),
 * so where the labels are the greedy ones so is the result. Prefixes are nodes of a trie (a parent and a
 * label each), so extending one costs the same whatever its length.
 */
export function ctcBeam(probs: Float32Array, steps: number, classes: number, offset = 0, options: BeamOptions = BEAM_DEFAULTS): CtcChar[] {
  return ctcAlign(probs, steps, classes, beamLabels(probs, classes, offset, scanSteps(probs, steps, classes, offset, options.floor), options.width), offset);
}

/**
 * The recognizer's reading of a line as Folio decodes it: the greedy path, with the beam search's spaces
 * where the beam search's labelling has the greedy characters and differs only in its spaces (`spaceClass`).
 * The beam search's other changes were measured and not kept: on SROIE receipts 1-40 (bench:ocr-quality)
 * they mended as many characters as they broke ("Payment" for "Payent", "ltem" for "Item"; CER 0.211 ->
 * 0.213), while its spaces alone raised word recall from 0.824 to 0.829 at the same CER, and on receipts
 * 41-80 from 0.845 to 0.850, a company name among them ("VIVOPAC MARKETING SDN" for "VIVOPACMARKETINGSDN").
 */
export function ctcDecode(probs: Float32Array, steps: number, classes: number, offset: number, spaceClass: number, options: BeamOptions = BEAM_DEFAULTS): CtcChar[] {
  const scan = scanSteps(probs, steps, classes, offset, options.floor);
  const greedy = runsOf(scan.best, scan.bestP);
  const labels = beamLabels(probs, classes, offset, scan, options.width);
  const same = (xs: readonly number[], ys: readonly number[]) => xs.length === ys.length && xs.every((x, i) => x === ys[i]);
  const greedyLabels = greedy.map((c) => c.index);
  if (same(labels, greedyLabels)) return greedy;
  const letters = (xs: readonly number[]) => xs.filter((k) => k !== spaceClass);
  return same(letters(labels), letters(greedyLabels)) ? ctcAlign(probs, steps, classes, labels, offset) : greedy;
}

/** The step of a character's run where its class is likeliest. */
export function peakStep(probs: Float32Array, classes: number, offset: number, c: Pick<CtcChar, 'index' | 'first' | 'last'>): number {
  let at = c.first;
  for (let t = c.first + 1; t <= c.last; t++) if (probs[offset + t * classes + c.index] > probs[offset + at * classes + c.index]) at = t;
  return at;
}

/**
 * Whether a character is less likely, at its strongest step, than nothing there: the blank and the space
 * (`spaceClass`) together. The greedy path takes a class that beats each of them alone, so a speck after a
 * word is read as a point at 0.34 beside a space at 0.33 and a blank at 0.24 ("SDN.BHD", "ENTERPRISE.").
 */
export function doubtfulChar(probs: Float32Array, classes: number, offset: number, c: Pick<CtcChar, 'index' | 'first' | 'last'>, spaceClass: number): boolean {
  const base = offset + peakStep(probs, classes, offset, c) * classes;
  return probs[base + c.index] < probs[base] + probs[base + spaceClass];
}

/** The prefix beam search itself: the labels of the likeliest prefix after the last step. */
function beamLabels(probs: Float32Array, classes: number, offset: number, scan: StepScan, width: number): number[] {
  const steps = scan.best.length;
  const parent: number[] = [-1];
  const label: number[] = [0];
  const children: Map<number, number>[] = [new Map()];
  const child = (node: number, k: number): number => {
    let c = children[node].get(k);
    if (c === undefined) {
      c = parent.length;
      parent.push(node);
      label.push(k);
      children.push(new Map());
      children[node].set(k, c);
    }
    return c;
  };
  interface Beam { node: number; blank: number; label: number }
  let beams: Beam[] = [{ node: 0, blank: 1, label: 0 }];
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    const pBlank = probs[base];
    const next = new Map<number, Beam>();
    const at = (node: number): Beam => {
      let b = next.get(node);
      if (!b) next.set(node, (b = { node, blank: 0, label: 0 }));
      return b;
    };
    for (const b of beams) {
      const total = b.blank + b.label;
      at(b.node).blank += total * pBlank;
      const last = b.node === 0 ? 0 : label[b.node];
      for (let i = scan.starts[t]; i < scan.starts[t + 1]; i++) {
        const k = scan.cands[i];
        const p = probs[base + k];
        if (k === last) {
          // The same class again continues the character, unless a blank came between.
          at(b.node).label += b.label * p;
          if (b.blank > 0) at(child(b.node, k)).label += b.blank * p;
        } else {
          at(child(b.node, k)).label += total * p;
        }
      }
    }
    beams = [...next.values()].sort((x, y) => y.blank + y.label - (x.blank + x.label)).slice(0, width);
    // Scaled so the best is 1: products over hundreds of steps would underflow, and only ratios matter.
    const top = beams[0].blank + beams[0].label || 1;
    for (const b of beams) {
      b.blank /= top;
      b.label /= top;
    }
  }
  const labels: number[] = [];
  for (let node = beams[0].node; node > 0; node = parent[node]) labels.push(label[node]);
  return labels.reverse();
}

/**
 * The single most likely path through the steps that collapses to `labels` (Viterbi over CTC's states: a
 * blank before, between and after the labels), and from it each label's first and last step and mean
 * probability, as ctcGreedy reports them.
 */
export function ctcAlign(probs: Float32Array, steps: number, classes: number, labels: readonly number[], offset = 0): CtcChar[] {
  if (!labels.length) return [];
  const states = 2 * labels.length + 1;
  const cls = (s: number) => (s % 2 === 0 ? 0 : labels[(s - 1) >> 1]);
  const logp = (t: number, s: number) => Math.log(Math.max(1e-30, probs[offset + t * classes + cls(s)]));
  let score = new Float64Array(states).fill(-Infinity);
  const from = new Int32Array(steps * states).fill(-1);
  score[0] = logp(0, 0);
  score[1] = logp(0, 1);
  for (let t = 1; t < steps; t++) {
    const next = new Float64Array(states).fill(-Infinity);
    for (let s = 0; s < states; s++) {
      let best = score[s];
      let arg = s;
      if (s >= 1 && score[s - 1] > best) {
        best = score[s - 1];
        arg = s - 1;
      }
      // A label may follow the label before it directly, unless they are the same class.
      if (s % 2 === 1 && s >= 3 && cls(s) !== cls(s - 2) && score[s - 2] > best) {
        best = score[s - 2];
        arg = s - 2;
      }
      if (best === -Infinity) continue;
      next[s] = best + logp(t, s);
      from[t * states + s] = arg;
    }
    score = next;
  }
  const path = new Int32Array(steps);
  const prob = new Float32Array(steps);
  let s = score[states - 1] >= score[states - 2] ? states - 1 : states - 2;
  for (let t = steps - 1; t >= 0; t--) {
    path[t] = cls(s);
    prob[t] = probs[offset + t * classes + path[t]];
    if (t > 0) s = from[t * states + s];
  }
  return runsOf(path, prob);
}
