// Every payslip dataset document redrawn as a PDF (test/fixtures/payslipPdf.ts), read back through
// pdf.js (extractPdfText) and laid out (layoutText): text, character boxes, lines and pages must match
// what the dataset recorded.
import { afterAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../../main/pipeline/pdfText.ts';
import { layoutText } from '../../main/pipeline/textLayout.ts';
import type { CharBox } from '../../main/domain/geometry.ts';
import { buildPayslipPdf, listPayslipDocumentIds, loadPayslipDocument, type RecordedChar } from '../fixtures/payslipPdf.ts';

/** Box tolerance in points. The dataset records 2 decimals (some float noise beyond); pdf.js keeps text
 * matrices as float32, so a few 1e-5 pt of drift is expected and anything near 0.01 would be a bug. */
const TOLERANCE = 0.01;

const totals = { documents: 0, skipped: [] as string[], chars: 0, maxDeviation: 0, joinedLines: 0, ms: 0 };

/** A recorded box, normalized: upside-down glyphs are recorded with x1 < x0 and y1 < y0. */
function normalized(c: RecordedChar) {
  return { x0: Math.min(c.x0, c.x1), x1: Math.max(c.x0, c.x1), y0: Math.min(c.y0, c.y1), y1: Math.max(c.y0, c.y1) };
}

const nonSpace = (text: string) => Array.from(text).filter((ch) => ch.trim() !== '').join('');

/** Recorded lines that the layout joined are acceptable only when they sit side by side on one row:
 * consecutive in the text, the later one starting where the earlier one ends, overlapping vertically
 * by half the smaller line height. The dataset's source tool split some visual rows in two. */
function sideBySide(a: RecordedChar[], b: RecordedChar[]): boolean {
  const box = (line: RecordedChar[]) => {
    const n = line.map(normalized);
    return { x0: Math.min(...n.map((c) => c.x0)), x1: Math.max(...n.map((c) => c.x1)), y0: Math.min(...n.map((c) => c.y0)), y1: Math.max(...n.map((c) => c.y1)) };
  };
  const [p, q] = [box(a), box(b)];
  const overlap = Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0);
  return q.x0 >= p.x1 - 0.5 && overlap >= 0.5 * Math.min(p.y1 - p.y0, q.y1 - q.y0);
}

describe('payslip geometry: dataset characters survive PDF → pdf.js → layout', () => {
  for (const id of listPayslipDocumentIds()) {
    const doc = loadPayslipDocument(id);
    if (!doc) {
      totals.skipped.push(id);
      continue;
    }
    it(`document ${id}`, async () => {
      const started = performance.now();
      const pages = await extractPdfText(await buildPayslipPdf(doc));
      const layout = layoutText(pages);
      totals.ms += performance.now() - started;

      // (4) page breaks: one page per recorded page, every character on its recorded page.
      expect(pages.map((p) => [p.width, p.height])).toEqual(doc.pages.map((p) => [p.width, p.height]));
      expect(layout.text.split('\f')).toHaveLength(doc.pages.length);
      expect(pages.every((p) => p.hasTextLayer === p.chars.length > 0)).toBe(true);

      // (1) the non-space characters, page by page, in the recorded text order.
      expect(layout.text.split('\f').map(nonSpace)).toEqual(doc.text.split('\f').map(nonSpace));
      expect(layout.chars).toHaveLength(doc.chars.length);

      // (2) every box, and the served offsets, pages and top/bottom.
      const codePoints = Array.from(layout.text);
      doc.chars.forEach((rec, i) => {
        const got: CharBox = layout.chars[i];
        const want = normalized(rec);
        const deviation = Math.max(Math.abs(got.x0 - want.x0), Math.abs(got.x1 - want.x1), Math.abs(got.y0 - want.y0), Math.abs(got.y1 - want.y1));
        totals.maxDeviation = Math.max(totals.maxDeviation, deviation);
        if (deviation > TOLERANCE || got.text !== rec.text || got.page_index !== rec.page_number - 1) {
          // Fails with a readable diff of this one character.
          const { text, page_index, x0, x1, y0, y1 } = got;
          expect({ text, page_index, x0, x1, y0, y1 }, `offset ${rec.offset}`).toEqual({ text: rec.text, page_index: rec.page_number - 1, ...want });
        }
        expect(codePoints[got.offset]).toBe(got.text);
        const height = doc.pages[rec.page_number - 1].height;
        expect([got.top, got.bottom]).toEqual([height - got.y1, height - got.y0]);
      });
      totals.chars += doc.chars.length;

      // (3) lines: a recorded line is never split; joined recorded lines sit side by side on one row.
      const recordedLines = new Map<string, RecordedChar[]>();
      const layoutLinesOf = new Map<string, Set<number>>(); // recorded line -> layout lines
      const recordedLinesOf = new Map<number, string[]>(); // layout line -> recorded lines, in text order
      doc.chars.forEach((rec, i) => {
        const key = `${rec.page_number}:${rec.line_number}`;
        const mine = layout.chars[i].line_index;
        recordedLines.set(key, [...(recordedLines.get(key) ?? []), rec]);
        layoutLinesOf.set(key, (layoutLinesOf.get(key) ?? new Set()).add(mine));
        const keys = recordedLinesOf.get(mine) ?? [];
        if (!keys.includes(key)) recordedLinesOf.set(mine, [...keys, key]);
      });
      const split = [...layoutLinesOf].filter(([, mine]) => mine.size > 1).map(([key]) => key);
      expect(split, 'recorded lines split by the layout').toEqual([]);
      for (const keys of recordedLinesOf.values()) {
        for (let k = 1; k < keys.length; k++) {
          expect(sideBySide(recordedLines.get(keys[k - 1])!, recordedLines.get(keys[k])!), `recorded lines ${keys[k - 1]} and ${keys[k]} joined`).toBe(true);
          totals.joinedLines += 1;
        }
      }
      totals.documents += 1;
    });
  }

  afterAll(() => {
    console.log(
      `payslip geometry: ${totals.documents} documents, ${totals.chars} characters compared, max box deviation ${totals.maxDeviation.toExponential(1)} pt ` +
        `(tolerance ${TOLERANCE}), ${totals.joinedLines} pairs of recorded lines joined as one row, ` +
        `${totals.skipped.length} skipped without bbox.zip (${totals.skipped.join(', ')}), extraction + layout ${(totals.ms / 1000).toFixed(1)} s`,
    );
  });
});
