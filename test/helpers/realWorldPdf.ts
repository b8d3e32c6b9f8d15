// PDFs made the way users' files are made, for bench:pipeline and the routing tests: printed letter pages
// drawn by ImageMagick (`convert`, DejaVu fonts) and "scanned" (paper tone, blur, noise, a slight skew) as
// a grayscale PNG or a colour JPEG at 200 or 300 dpi, and photographed receipts of the SROIE development
// set as they are (JPEG), each page wrapped by `img2pdf --pagesize A4` as scanner software does (the
// picture fitted into the page, centred). Built at run time from the shared data: no binaries committed.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { RECEIPTS_DIR, isHeldBack } from './receipts.ts';

const run = promisify(execFile);

/** How a printed page is scanned: resolution, what the scanner writes, and whether the paper sits a little askew. */
export interface ScanStyle {
  dpi: 200 | 300;
  format: 'gray-png' | 'colour-jpeg';
  skewDeg?: number;
}

/** The printed pages of the mixed PDF: every combination users' scanners write. */
export const LETTER_STYLES: readonly ScanStyle[] = [
  { dpi: 300, format: 'gray-png' },
  { dpi: 300, format: 'colour-jpeg', skewDeg: 0.4 },
  { dpi: 200, format: 'gray-png', skewDeg: -0.3 },
  { dpi: 200, format: 'colour-jpeg' },
  { dpi: 300, format: 'gray-png', skewDeg: 0.2 },
];

/**
 * Receipts the mixed PDF takes: development receipts 161-199 (the held-back ones, divisible by 5, left
 * out). bench:ocr-quality tunes on the first 60-80 development receipts (001-100), bench:receipts and
 * bench:receipts-dev train and test on 001-175 by their splits' position; these were chosen on none.
 */
export const BENCH_RECEIPTS = [171, 172, 173, 174, 176];

const SENTENCES = [
  'Thank you for your letter of last month concerning the renewal of the lease for the warehouse.',
  'We have reviewed the terms and are pleased to confirm that the monthly rent remains unchanged.',
  'Please find enclosed two signed copies of the agreement; kindly return one of them to our office.',
  'The insurance certificate for the coming year must reach us before the end of the quarter.',
  'Our accounts department will send the invoice for the deposit under separate cover next week.',
  'Should you wish to discuss the maintenance schedule, our facilities manager is at your disposal.',
  'The heating system in the northern building was inspected in March and found in good order.',
  'Parking spaces seven to twelve are reserved for your vehicles from the first day of the lease.',
  'Deliveries may be made on weekdays between seven in the morning and six in the evening.',
  'We would be grateful if you could confirm the names of the persons holding keys to the premises.',
  'Any alterations to the interior require our written consent and a plan drawn by an architect.',
  'The fire alarm is tested every Thursday at ten o clock; no evacuation is needed during the test.',
  'Waste containers are emptied on Mondays and Fridays; recycling is collected every second week.',
  'A copy of the house rules is attached for your staff, together with the emergency phone numbers.',
  'We look forward to continuing our cooperation and remain at your service for any questions.',
  'The meter readings for water and electricity will be taken jointly on the handover date.',
  'Invoices are payable within thirty days of receipt without deduction to the account below.',
  'Kindly quote the contract number on every payment so that it can be allocated without delay.',
];

/** The lines of letter `n` (1-based): a letterhead, a date, an address, a subject and paragraphs of plain
 * prose, wrapped at about 80 letters. Each line is one line of print. */
export function letterLines(n: number): string[] {
  const words: string[] = [];
  for (let i = 0; i < 14; i++) words.push(...SENTENCES[(n * 5 + i * 7) % SENTENCES.length].split(' '));
  const body: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 80) {
      body.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) body.push(line);
  return [
    'Northbridge Property Services Ltd',
    `14 Harbour Road, Suite ${200 + n}, Leeds LS1 4DY`,
    `Date: ${10 + n} March 2025`,
    `Reference: NB-${4100 + n * 37}/L`,
    'Dear Mr. Whitfield,',
    `Subject: Lease of Unit ${n} at Canal Street`,
    ...body,
    'Yours sincerely,',
    'Margaret Ellison, Property Manager',
  ];
}

/** One letter page printed and scanned in `style`: the image file it writes (PNG or JPEG) into `dir`. */
export async function scanLetter(n: number, style: ScanStyle, dir: string): Promise<string> {
  const lines = letterLines(n);
  const [w, h] = [Math.round((8.27 * style.dpi)), Math.round(11.69 * style.dpi)];
  const margin = Math.round(0.9 * style.dpi);
  const out = path.join(dir, `letter-${n}.${style.format === 'gray-png' ? 'png' : 'jpg'}`);
  const args = [
    '-density', String(style.dpi), '-units', 'PixelsPerInch', '-size', `${w}x${h}`, 'xc:white',
    '-font', 'DejaVu-Serif', '-pointsize', '11', '-interline-spacing', String(Math.round(style.dpi / 14)), '-fill', '#181818',
    '-annotate', `+${margin}+${margin}`, lines.join('\n'),
    // The scan: paper a little darker and tinted (colour) or gray, the ink softened, sensor noise, askew.
    ...(style.skewDeg ? ['-background', 'white', '-rotate', String(style.skewDeg), '-gravity', 'center', '-extent', `${w}x${h}`, '+gravity'] : []),
    '-blur', '0x0.7',
    ...(style.format === 'colour-jpeg' ? ['(', '+clone', '-fill', '#f4ecd6', '-colorize', '100', ')', '-compose', 'Multiply', '-composite'] : ['-level', '0%,106%']),
    '-attenuate', '0.25', '+noise', 'Gaussian',
    ...(style.format === 'gray-png' ? ['-colorspace', 'Gray', '-depth', '8', out] : ['-quality', '82', '-sampling-factor', '2x2', out]),
  ];
  await run('convert', args, { maxBuffer: 1 << 24 });
  return out;
}

export interface ReceiptTruth {
  number: number;
  company: string;
  date: string;
  total: string;
}

/** A development receipt's photo file and its key values (the dataset's labels). */
export function receiptFile(n: number): { file: string; truth: ReceiptTruth } {
  if (isHeldBack(n) || n >= 200) throw new Error(`receipt ${n} is held back or sealed`);
  const id = String(n).padStart(3, '0');
  const key = JSON.parse(fs.readFileSync(path.join(RECEIPTS_DIR, 'key', `${id}.json`), 'utf8')) as Record<string, string>;
  return { file: path.join(RECEIPTS_DIR, 'img', `${id}.jpg`), truth: { number: n, company: key.company, date: key.date, total: key.total } };
}

/** Image files wrapped page by page into an A4 PDF by img2pdf, as scanner and phone software does. */
export async function img2pdf(files: string[], out: string): Promise<Uint8Array> {
  await run('img2pdf', ['--pagesize', 'A4', '-o', out, ...files], { maxBuffer: 1 << 24 });
  return new Uint8Array(fs.readFileSync(out));
}

export interface MixedPdf {
  /** The letters then the receipts, one page each. */
  pdf: Uint8Array;
  file: string;
  /** The letters alone and the receipts alone, wrapped the same way. */
  lettersFile: string;
  receiptsFile: string;
  letters: { number: number; style: ScanStyle; lines: string[] }[];
  receipts: ReceiptTruth[];
}

/** The mixed real-world PDF: LETTER_STYLES.length scanned letters, then the given receipts' photos. */
export async function mixedPdf(dir: string, options: { letters?: readonly ScanStyle[]; receipts?: number[]; firstLetter?: number } = {}): Promise<MixedPdf> {
  const styles = options.letters ?? LETTER_STYLES;
  const first = options.firstLetter ?? 1;
  fs.mkdirSync(dir, { recursive: true });
  const letters = await Promise.all(styles.map(async (style, i) => ({ number: first + i, style, lines: letterLines(first + i), file: await scanLetter(first + i, style, dir) })));
  const receipts = (options.receipts ?? BENCH_RECEIPTS).map(receiptFile);
  const file = path.join(dir, 'mixed.pdf');
  const pdf = await img2pdf([...letters.map((l) => l.file), ...receipts.map((r) => r.file)], file);
  const lettersFile = path.join(dir, 'letters.pdf');
  const receiptsFile = path.join(dir, 'receipts.pdf');
  await img2pdf(letters.map((l) => l.file), lettersFile);
  await img2pdf(receipts.map((r) => r.file), receiptsFile);
  return { pdf, file, lettersFile, receiptsFile, letters: letters.map(({ number, style, lines }) => ({ number, style, lines })), receipts: receipts.map((r) => r.truth) };
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** How many of the letters' lines a text holds (whitespace and case aside), of how many. */
export function linesFound(text: string, letters: MixedPdf['letters']): { found: number; of: number; missing: string[] } {
  const t = norm(text);
  const all = letters.flatMap((l) => l.lines);
  const missing = all.filter((l) => !t.includes(norm(l)));
  return { found: all.length - missing.length, of: all.length, missing };
}

/** How many receipts' company, date and total a text holds (whitespace and case aside). */
export function keysFound(text: string, receipts: ReceiptTruth[]): { company: number; date: number; total: number; of: number } {
  const t = norm(text);
  const has = (v: string) => (v ? t.includes(norm(v)) : false);
  return {
    company: receipts.filter((r) => has(r.company)).length,
    date: receipts.filter((r) => has(r.date)).length,
    total: receipts.filter((r) => has(r.total)).length,
    of: receipts.length,
  };
}
