// Glyph boxes from born-digital PDFs (pdf-lib's standard Helvetica, words drawn as runs) checked
// against pdf-lib's own font metrics: spacing, scaling, TJ kerning, transforms and rotated pages.
import { describe, expect, it } from 'vitest';
import {
  beginText,
  concatTransformationMatrix,
  degrees,
  endText,
  PDFDocument,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  setCharacterSpacing,
  setCharacterSqueeze,
  setFontAndSize,
  setTextMatrix,
  setWordSpacing,
  StandardFonts,
  type PDFFont,
} from 'pdf-lib';
import { extractPdfText, type PdfChar } from '../../main/pipeline/pdfText.ts';
import { layoutText } from '../../main/pipeline/textLayout.ts';
import { encryptedPdf } from '../fixtures/pdfSamples.ts';

/** pdf.js keeps text matrices as float32: positions drift by up to ~1e-5 pt. */
const EPS = 1e-4;

interface Run {
  text: string;
  /** Pen position along the writing direction and the baseline across it, page points. */
  start: number;
  size: number;
  charSpacing?: number;
  wordSpacing?: number;
  hScale?: number;
}

/** Where each glyph of a run must start and end along its line, from pdf-lib's Helvetica metrics:
 * advance = (width + char spacing + word spacing on spaces) × horizontal scaling; box = width × scaling. */
function expectedSpans(font: PDFFont, run: Run): [number, number][] {
  const { charSpacing = 0, wordSpacing = 0, hScale = 1 } = run;
  let pen = run.start;
  return Array.from(run.text).map((ch) => {
    const width = font.widthOfTextAtSize(ch, run.size);
    const span: [number, number] = [pen, pen + width * hScale];
    pen += (width + charSpacing + (ch === ' ' ? wordSpacing : 0)) * hScale;
    return span;
  });
}

function expectUprightRun(chars: PdfChar[], font: PDFFont, run: Run, baseline: number): void {
  expect(chars.map((c) => c.text).join('')).toBe(run.text);
  const spans = expectedSpans(font, run);
  const descent = chars[0].y0 - baseline;
  // Helvetica's descent is about a fifth of the size; all glyphs share it and are one size tall.
  expect(descent / run.size).toBeGreaterThan(-0.25);
  expect(descent / run.size).toBeLessThan(-0.15);
  chars.forEach((c, i) => {
    expect(c.x0).toBeCloseTo(spans[i][0], 4);
    expect(c.x1).toBeCloseTo(spans[i][1], 4);
    expect(c.y0 - baseline).toBeCloseTo(descent, 6);
    expect(c.y1 - c.y0).toBeCloseTo(run.size, 4);
    expect(c.baseline).toBeCloseTo(baseline, 4);
    expect(c.dir).toBe(0);
  });
}

async function helveticaDoc() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  return { doc, font };
}

describe('extractPdfText', () => {
  it('gives Helvetica runs exact glyph boxes, with char and word spacing and horizontal scaling', async () => {
    const { doc, font } = await helveticaDoc();
    const page = doc.addPage([595.28, 841.89]);
    page.drawText('Hello World', { x: 50.25, y: 700.5, size: 12, font });
    page.pushOperators(setCharacterSpacing(0.5), setWordSpacing(2), setCharacterSqueeze(80));
    page.drawText('Netto 1.234,56 EUR', { x: 60, y: 650, size: 10, font });
    page.pushOperators(setCharacterSpacing(0), setWordSpacing(0), setCharacterSqueeze(100));
    doc.addPage([200, 200]);

    const [first, blank] = await extractPdfText(await doc.save());
    expect(first).toMatchObject({ number: 1, width: 595.28, height: 841.89, rotation: 0, hasTextLayer: true });
    expect(blank).toMatchObject({ number: 2, hasTextLayer: false, chars: [] });
    expectUprightRun(first.chars.slice(0, 11), font, { text: 'Hello World', start: 50.25, size: 12 }, 700.5);
    expectUprightRun(first.chars.slice(11), font, { text: 'Netto 1.234,56 EUR', start: 60, size: 10, charSpacing: 0.5, wordSpacing: 2, hScale: 0.8 }, 650);
  });

  it('applies TJ adjustments and the current transformation matrix', async () => {
    const { doc, font } = await helveticaDoc();
    const page = doc.addPage([300, 300]);
    const key = page.node.newFontDictionary(font.name, font.ref);
    const adjusted = doc.context.obj([font.encodeText('A'), -500, font.encodeText('V')]);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(2, 0, 0, 2, 10, 20),
      beginText(),
      setFontAndSize(key, 10),
      setTextMatrix(1, 0, 0, 1, 30, 40),
      PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [adjusted]),
      endText(),
      popGraphicsState(),
    );

    const [{ chars }] = await extractPdfText(await doc.save());
    // Page space doubles everything: 10 pt type is 20 pt tall, TJ -500 moves right by 2 × 5 pt.
    const widthA = 2 * font.widthOfTextAtSize('A', 10);
    expect(chars.map((c) => c.text)).toEqual(['A', 'V']);
    expect(chars[0].x0).toBeCloseTo(70, 4);
    expect(chars[0].x1).toBeCloseTo(70 + widthA, 4);
    expect(chars[1].x0).toBeCloseTo(70 + widthA + 10, 4);
    expect(chars[1].x1 - chars[1].x0).toBeCloseTo(2 * font.widthOfTextAtSize('V', 10), 4);
    for (const c of chars) {
      expect(c.baseline).toBeCloseTo(100, 4);
      expect(c.y1 - c.y0).toBeCloseTo(20, 4);
    }
  });

  it('measures a page rotated by 90° as it is displayed', async () => {
    const { doc, font } = await helveticaDoc();
    const page = doc.addPage([200, 300]);
    page.setRotation(degrees(90));
    // Displayed point of user point (x, y) on this page: (y, 200 - x). Text turned by 90° reads upright.
    page.drawText('Upright', { x: 150, y: 40, size: 12, font, rotate: degrees(90) });
    page.drawText('Down', { x: 20, y: 50, size: 10, font });

    const [result] = await extractPdfText(await doc.save());
    expect(result).toMatchObject({ width: 300, height: 200, rotation: 90, hasTextLayer: true });
    expectUprightRun(result.chars.slice(0, 7), font, { text: 'Upright', start: 40, size: 12 }, 50);

    // Unturned text runs down the displayed page (dir 270): along -y, glyph tops facing +x.
    const down = result.chars.slice(7);
    expect(down.map((c) => c.text).join('')).toBe('Down');
    expectedSpans(font, { text: 'Down', start: 20, size: 10 }).forEach(([from, to], i) => {
      expect(down[i].dir).toBe(270);
      expect(down[i].y1).toBeCloseTo(200 - from, 4);
      expect(down[i].y0).toBeCloseTo(200 - to, 4);
      expect(down[i].x1 - down[i].x0).toBeCloseTo(10, 4);
      expect(down[i].x0).toBeLessThan(50);
    });
    expect(layoutText([result], { padding: false }).text).toBe('Upright\nDown');
  });

  it('reads filled form fields as page text, inside their widget', async () => {
    const { doc } = await helveticaDoc();
    const page = doc.addPage([300, 300]);
    const field = doc.getForm().createTextField('employee');
    field.setText('Erika Muster');
    field.addToPage(page, { x: 50, y: 100, width: 150, height: 20 });

    const [{ chars }] = await extractPdfText(await doc.save());
    expect(chars.map((c) => c.text).join('')).toBe('Erika Muster');
    for (const c of chars) {
      expect(c.x0).toBeGreaterThanOrEqual(50);
      expect(c.x1).toBeLessThanOrEqual(200);
      expect(c.baseline).toBeGreaterThan(100);
      expect(c.baseline).toBeLessThan(120);
    }
  });

  it('reads a 10-page born-digital PDF quickly', async () => {
    const { doc, font } = await helveticaDoc();
    const line = 'Lohnsteuer 1.234,56 Solidaritaetszuschlag 67,89 Kirchensteuer 12,34 Netto 2.345,67';
    for (let p = 0; p < 10; p++) {
      const page = doc.addPage([595.28, 841.89]);
      for (let l = 0; l < 60; l++) page.drawText(line, { x: 40, y: 800 - l * 12.5, size: 8, font });
    }
    const bytes = await doc.save();

    const started = performance.now();
    const pages = await extractPdfText(bytes);
    const layout = layoutText(pages);
    const ms = performance.now() - started;
    console.log(`extractPdfText + layoutText: 10 pages, ${layout.chars.length} characters in ${ms.toFixed(0)} ms`);
    expect(pages).toHaveLength(10);
    expect(layout.text.split('\f')[9].split('\n')).toHaveLength(60);
    expect(layout.chars).toHaveLength(10 * 60 * line.replaceAll(' ', '').length);
  });

  it("fails, from its worker thread, with pdf.js's own error names, which processing tells apart", async () => {
    const broken = await extractPdfText(new TextEncoder().encode('%PDF-1.4\nthis is not a PDF at all\n')).catch((err: Error) => err);
    expect(broken).toBeInstanceOf(Error);
    expect(broken).toMatchObject({ name: 'InvalidPDFException', message: 'Invalid PDF structure.' });
    const locked = await extractPdfText(encryptedPdf({ userPassword: 'secret', ownerPassword: 'owner', text: 'Locked' })).catch((err: Error) => err);
    expect(locked).toMatchObject({ name: 'PasswordException' });
  });
});
