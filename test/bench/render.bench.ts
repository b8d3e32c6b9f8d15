// Rendering figures: ms per page (born-digital text page and 300 dpi colour scan) for each output, and
// peak RSS of the whole process while a long scan is rendered for OCR and then made searchable.
// Run: node bin/run-ts.mjs test/bench/render.bench.ts [scan pages, default 100]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { renderPages, type RenderOptions } from '../../main/pipeline/render.ts';
import { buildSearchablePdf, type WordBox } from '../../main/pipeline/searchablePdf.ts';

const A4: [number, number] = [595.2, 841.68];
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 10);

/** A 300 dpi colour A4 scan: paper noise and 60 lines of text, about 0.9 MB as JPEG. */
async function scanJpeg(): Promise<Buffer> {
  const [w, h] = [2480, 3508];
  const lines = Array.from({ length: 60 }, (_, i) => `<text x="200" y="${300 + i * 50}" font-family="sans-serif" font-size="36">Line ${i + 1}: Gross pay 1.234,56 EUR net salary tax insurance</text>`);
  const paper = await sharp({ create: { width: w, height: h, channels: 3, background: '#ebebeb', noise: { type: 'gaussian', mean: 235, sigma: 4 } } }).png().toBuffer();
  return sharp(paper)
    .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${lines.join('')}</svg>`) }])
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** Every page embeds its own copy of the scan, as a scanner's PDF does (no image shared between pages). */
async function scanPdf(jpeg: Buffer, pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage(A4).drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: A4[0], height: A4[1] });
  return doc.save();
}

async function textPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage(A4);
    for (let i = 0; i < 60; i++) page.drawText(`Line ${i + 1}: Gross pay 1.234,56 EUR net salary tax insurance contributions`, { x: 50, y: 800 - i * 12.5, size: 10, font });
  }
  return doc.save();
}

/** Steady-state ms per page with one worker: the first page (worker start) is left out. */
async function msPerPage(pdf: Uint8Array, options: RenderOptions): Promise<number> {
  const times: number[] = [];
  let last = performance.now();
  for await (const _ of renderPages(pdf, { workers: 1, ...options })) {
    const now = performance.now();
    times.push(now - last);
    last = now;
  }
  const steady = times.slice(1);
  return Math.round(steady.reduce((a, b) => a + b, 0) / steady.length);
}

/** The long run happens in a fresh process that only reads the PDF, so its RSS is the pipeline's own. */
async function measureLongScan(file: string): Promise<void> {
  const baseline = process.memoryUsage.rss();
  const pdf = fs.readFileSync(file);
  console.log(`${mb(pdf.length)} scan PDF: rss ${mb(baseline)} at start, ${mb(process.memoryUsage.rss())} with the PDF read`);
  peakRss = 0;
  let start = performance.now();
  let imageBytes = 0;
  let count = 0;
  for await (const page of renderPages(pdf, { ocr: true })) {
    imageBytes += page.image!.png.length + page.thumbnail!.png.length + page.ocr!.png.length;
    count++;
  }
  console.log(`render ${count} pages (OCR + image + thumbnail, default workers): ${((performance.now() - start) / 1000).toFixed(1)} s, ${mb(imageBytes)} of PNG streamed, peak rss ${mb(peakRss)}`);
  // 300 words per page, as a dense OCR'd page gives.
  const words: WordBox[] = Array.from({ length: 300 }, (_, i) => ({ text: `word${i}`, x0: 40 + (i % 10) * 52, x1: 80 + (i % 10) * 52, y0: 800 - Math.floor(i / 10) * 25, y1: 810 - Math.floor(i / 10) * 25 }));
  peakRss = 0;
  start = performance.now();
  const searchable = await buildSearchablePdf(
    pdf,
    Array.from({ length: count }, () => ({ kind: 'ocr' as const, widthPt: A4[0], heightPt: A4[1], words })),
  );
  console.log(`searchable PDF (text layer over each scan page): ${((performance.now() - start) / 1000).toFixed(1)} s, ${mb(searchable.length)}, peak rss ${mb(peakRss)}`);
}

if (process.argv[2] === '--measure') {
  await measureLongScan(process.argv[3]);
} else {
  const scanPages = Number(process.argv[2] ?? 100);
  const jpeg = await scanJpeg();
  const sample = { text: await textPdf(6), scan: await scanPdf(jpeg, 6) };
  const variants: [string, RenderOptions][] = [
    ['thumbnail only', { image: false }],
    ['image 150 dpi + thumbnail', { imageLongSidePx: 1754 }],
    ['image 2000 px (171 dpi) + thumbnail', {}],
    ['OCR 300 dpi gray only', { image: false, thumbnail: false, ocr: true }],
    ['OCR 300 dpi + image + thumbnail', { ocr: true }],
  ];
  console.log('ms per page, one worker:');
  for (const [name, options] of variants) {
    console.log(`  ${name.padEnd(38)} text ${String(await msPerPage(sample.text, options)).padStart(5)}   scan ${String(await msPerPage(sample.scan, options)).padStart(5)}`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-render-bench-'));
  try {
    const file = path.join(dir, 'scan.pdf');
    fs.writeFileSync(file, await scanPdf(jpeg, scanPages));
    console.log(`\n${scanPages}-page scan, in a fresh process:`);
    execFileSync(process.execPath, [fileURLToPath(new URL('../../bin/run-ts.mjs', import.meta.url)), fileURLToPath(import.meta.url), '--measure', file], { stdio: 'inherit' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
clearInterval(sampler);
