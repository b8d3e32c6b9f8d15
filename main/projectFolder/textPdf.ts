// A PDF for a document that arrives without its file (a project folder holds its text and character boxes,
// not always the original): every character drawn in Helvetica at its box, so the viewer shows the text
// where it stands on the page, and pdf.js finds it there too. The stored text and boxes stay the folder's
// own; this file is only what is shown and downloaded.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { CharBox } from '../domain/geometry.ts';

/** Helvetica's descent (AFM Descender, em): a glyph's box bottom is this far below its baseline. */
const DESCENT_EM = 0.207;

export async function textPdf(pages: readonly { widthPt: number; heightPt: number }[], chars: readonly CharBox[], title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setProducer('Folio (project folder import)');
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const drawable = new Set(font.getCharacterSet());
  const byPage = new Map<number, CharBox[]>();
  for (const c of chars) {
    if (!c.text.trim()) continue;
    const list = byPage.get(c.page_index) ?? [];
    list.push(c);
    byPage.set(c.page_index, list);
  }
  for (const [i, size] of pages.entries()) {
    const page = doc.addPage([size.widthPt, size.heightPt]);
    for (const c of byPage.get(i) ?? []) {
      // Helvetica (WinAnsi) has no glyph for some characters: they are left undrawn (the text keeps them).
      const ch = drawable.has(c.text.codePointAt(0)!) ? c.text : undefined;
      if (!ch) continue;
      const height = c.y1 - c.y0;
      const advance = font.widthOfTextAtSize(ch, 1);
      // As large as the box is high, unless the glyph would then be wider than its box.
      const fontSize = Math.max(0.5, Math.min(height > 0 ? height : 10, advance > 0 && c.x1 > c.x0 ? (c.x1 - c.x0) / advance : Infinity));
      page.drawText(ch, { x: c.x0, y: c.y0 + DESCENT_EM * fontSize, size: fontSize, font });
    }
  }
  return doc.save({ useObjectStreams: true });
}
