// parseHocr (main/pipeline/ocr/hocr.ts) scans hOCR by hand rather than with a pattern per tag: the corners
// of tesseract's syntax it must read as before (entities, titles, stray '<', whitespace between tags).
import { describe, expect, it } from 'vitest';
import { parseHocr } from '../../main/pipeline/ocr/hocr.ts';

describe('parseHocr', () => {
  it('reads entities in text and attributes, and the title part whose first word is the key', () => {
    const hocr = `<!DOCTYPE html><body><div class='ocr_carea' title="bbox 0 0 100 50">
      <p class="ocr_par"><span class="ocr_line" title="bbox 5 5 95 40 ; baseline 0 -3;x_size 30; x_descenders 6; x_ascenders 7">
        <span title='bboxes 1 2 3 4; bbox 10 12 40 35; x_wconf  93 ' class='ocrx_word'>
          <span class='ocrx_cinfo' title='x_bboxes 10 12 20 35; x_conf 99'>&lt;</span>
          <span class='ocrx_cinfo' title='x_bboxes 21 12 40 35; x_conf 98'>&#x41;&amp;</span>
        </span>
        <span class='ocrx_word' title='bbox 50 12 60 35; x_wconf 80'>a &lt; b</span>
      </span></p></div></body>`;
    const blocks = parseHocr(hocr);
    expect(blocks).toHaveLength(1);
    const [line] = blocks[0].paragraphs[0].lines;
    expect(line.bbox).toEqual({ x0: 5, y0: 5, x1: 95, y1: 40 });
    expect(line.baseline).toEqual({ x0: 5, y0: 37, x1: 95, y1: 37 });
    expect(line.rowAttributes).toEqual({ rowHeight: 30, descenders: -6, ascenders: 7 });
    expect(line.words.map((w) => [w.text, w.confidence, w.bbox.x0])).toEqual([['<A&', 93, 10], ['a < b', 80, 50]]);
    expect(line.words[0].symbols!.map((s) => s.text)).toEqual(['<', 'A&']);
    expect(line.words[1].symbols).toBeNull();
  });

  it('passes over a "<" that starts no tag and reads the text after it', () => {
    const hocr = `<div class='ocr_carea'><p class='ocr_par'><span class='ocr_line' title='bbox 0 0 9 9'><span class='ocrx_word' title='bbox 0 0 9 9; x_wconf 50'>x < y <> z</span></span></p></div>`;
    const [word] = parseHocr(hocr)[0].paragraphs[0].lines[0].words;
    // Text ends at each '<'; a '<' that opens no tag is dropped and the pieces are trimmed and joined (tesseract
    // writes '&lt;', never a bare '<').
    expect(word.text).toBe('xy> z');
  });
});
