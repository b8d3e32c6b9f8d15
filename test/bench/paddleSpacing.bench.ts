// node bin/run-ts.mjs test/bench/paddleSpacing.bench.ts: how far apart PP-OCR's recognizer puts the
// characters of one word and of two words, measured on receipts, to choose the spacing thresholds of the
// Paddle engine (main/pipeline/ocr/paddle/ctc.ts spaceBreaks). Lines the detector found and the recognizer
// read right (ignoring spaces and case) are matched to the ground-truth line with the same letters; each
// pair of neighbouring characters is then a word break or not, by the ground truth. Prints the two
// measures' distributions and the error count of a grid of thresholds, and last that of Folio's own breaks
// (spaceBreaks with the reader's settings: fixed-pitch cells, initialisms, brackets, the model's spaces).
// Receipts: a tuning set apart from the OCR quality benchmark's (which takes the first ones): the
// SPACING_RECEIPTS (default 30) from the 100th usable receipt on. Held-back receipts (number divisible
// by 5) are filtered out by number before any file is touched.
import fs from 'node:fs';
import path from 'node:path';
import { insideNumber, spaceBreaks, widestGap } from '../../main/pipeline/ocr/paddle/ctc.ts';
import { decodeRgb } from '../../main/pipeline/ocr/paddle/raster.ts';
import { cropLine, inkHeight, inkMask } from '../../main/pipeline/ocr/paddle/raster.ts';
import { PaddleReader, READER_DEFAULTS, REC_HEIGHT } from '../../main/pipeline/ocr/paddle/reader.ts';
import { isHeldBack, readReceiptImage, receiptNumbers, RECEIPTS_DIR } from '../helpers/receipts.ts';

const COUNT = Number(process.env.SPACING_RECEIPTS ?? 30);
const FROM = Number(process.env.SPACING_FROM ?? 100);

const squeeze = (s: string) => s.replace(/\s+/g, '').toLowerCase();

interface Pair { pitch: number; gap: number; space: boolean; model: boolean; number: boolean; point: boolean; open: boolean; amp: boolean; inside: boolean }

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(RECEIPTS_DIR, 'img'))) return console.log('No receipts: nothing to measure.');
  const numbers = receiptNumbers().slice(FROM, FROM + COUNT);
  const reader = await PaddleReader.open();
  let lines = 0;
  const perLine: Pair[][] = [];
  // Each matched line's breaks as Folio makes them (ctc.ts spaceBreaks with the reader's settings), pair by pair.
  const folioBreaks: boolean[][] = [];
  for (const n of numbers) {
    if (isHeldBack(n)) continue;
    const truth = fs.readFileSync(path.join(RECEIPTS_DIR, 'box', `${String(n).padStart(3, '0')}.csv`), 'utf8').split(/\r?\n/).map((r) => r.split(',').slice(8).join(',').trim()).filter(Boolean);
    // Ground-truth lines by their letters; letters that two lines spell with different spacing match neither.
    const bySqueezed = new Map<string, string | null>();
    for (const t of truth.map((l) => l.replace(/\s+/g, ' '))) bySqueezed.set(squeeze(t), bySqueezed.has(squeeze(t)) && bySqueezed.get(squeeze(t)) !== t ? null : t);
    const img = await decodeRgb(readReceiptImage(n));
    const boxes = await reader.detect(img);
    const raw = await reader.recognizeRaw(boxes.map((b) => cropLine(img, b, REC_HEIGHT)));
    for (const r of raw) {
      lines++;
      const gt = bySqueezed.get(squeeze(r.chars.map((c) => c.text).join('')));
      if (!gt || r.chars.length < 2) continue;
      // Which characters of the read line follow a space in the ground truth.
      const spaceBefore = new Set<number>();
      let k = 0;
      for (const ch of gt) {
        if (ch === ' ') spaceBefore.add(k);
        else k++;
      }
      const mask = inkMask(r.image);
      const letters = mask ? inkHeight(mask, r.image.width, r.image.height) : r.image.height;
      folioBreaks.push(spaceBreaks(r.chars, { line: r.image.height, letters }, r.ink, READER_DEFAULTS.spacing, r.modelSpaces).slice(1));
      perLine.push(r.chars.slice(1).map((c, j) => ({
        pitch: (c.center - r.chars[j].center) / r.image.height,
        gap: r.ink ? widestGap(r.ink, r.chars[j].center, c.center) / letters : 0,
        space: spaceBefore.has(j + 1),
        model: r.modelSpaces.has(j + 1),
        number: insideNumber(r.chars, j + 1),
        point: /^[.,]$/.test(c.text),
        open: c.text === '(' && /[\p{L}.]/u.test(r.chars[j].text),
        amp: c.text === '&' || r.chars[j].text === '&',
        inside: r.chars[j].text === '(' || c.text === ')',
      })));
    }
  }
  await reader.close();
  const pairs = perLine.flat();
  const spaces = pairs.filter((p) => p.space);
  const inner = pairs.filter((p) => !p.space);
  const q = (xs: number[], f: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor(f * s.length))].toFixed(3) : '-';
  };
  console.log(`${numbers.length} receipts, ${lines} lines read, ${perLine.length} matched a ground-truth line; ${inner.length} pairs within words, ${spaces.length} across a space`);
  for (const [name, f] of [['centre distance / line height', (p: Pair) => p.pitch], ['ink gap / letter height', (p: Pair) => p.gap]] as const) {
    console.log(`${name}: within words p50 ${q(inner.map(f), 0.5)} p90 ${q(inner.map(f), 0.9)} p99 ${q(inner.map(f), 0.99)}; spaces p01 ${q(spaces.map(f), 0.01)} p10 ${q(spaces.map(f), 0.1)} p50 ${q(spaces.map(f), 0.5)}`);
  }
  const tally = (breaks: (p: Pair, line: number, j: number) => boolean) => {
    let wrong = 0;
    let right = 0;
    for (const [i, l] of perLine.entries()) {
      const w = l.filter((p, j) => breaks(p, i, j) !== p.space).length;
      wrong += w;
      if (w === 0) right++;
    }
    return `${wrong} wrong of ${pairs.length}, ${right}/${perLine.length} lines entirely right`;
  };
  for (let t = 0.3; t <= 0.7001; t += 0.05) console.log(`  ink gap > ${t.toFixed(2)} letter heights: ${tally((p) => p.gap > t)}`);
  // spaceBreaks never breaks around a number's decimal point or comma (insideNumber).
  for (const t of [0.4, 0.45, 0.5]) console.log(`  ink gap > ${t.toFixed(2)}, none inside a number: ${tally((p) => !p.number && p.gap > t)}`);
  for (const t of [0.4, 0.45]) console.log(`  ink gap > ${t.toFixed(2)}, none inside a number nor before a point or comma: ${tally((p) => !p.number && !p.point && p.gap > t)}`);
  const rules = (p: Pair, t: number) => !p.number && !p.point && p.gap > t;
  console.log(`  those at 0.40, and always before "(" after a letter: ${tally((p) => p.open || rules(p, 0.4))}`);
  console.log(`  those at 0.40, and always around "&": ${tally((p) => p.amp || rules(p, 0.4))}`);
  console.log(`  those at 0.40, before "(" after a letter, never just inside brackets: ${tally((p) => !p.inside && (p.open || rules(p, 0.4)))}`);
  console.log(`  pairs before "(" after a letter: ${pairs.filter((p) => p.open).length} (${pairs.filter((p) => p.open && p.space).length} spaces); around "&": ${pairs.filter((p) => p.amp).length} (${pairs.filter((p) => p.amp && p.space).length} spaces); just inside brackets: ${pairs.filter((p) => p.inside).length} (${pairs.filter((p) => p.inside && p.space).length} spaces)`);
  for (let t = 0.5; t <= 1.0001; t += 0.1) console.log(`  centre distance > ${t.toFixed(1)} line heights: ${tally((p) => p.pitch > t)}`);
  console.log(`  the model's own spaces only: ${tally((p) => p.model)}`);
  for (let t = 0.4; t <= 0.8001; t += 0.05) console.log(`  the model's spaces, and ink gap > ${t.toFixed(2)} (none inside a number nor before a point or comma): ${tally((p) => (p.model && !p.number) || rules(p, t))}`);
  console.log(`Folio's word breaks (ctc.ts spaceBreaks, the reader's settings): ${tally((_p, i, j) => folioBreaks[i][j])}`);
}

await main();
