// Layout segmentation rules on synthetic character boxes: one case per rule (titles, paragraphs, lists,
// tables, columns, figures) and the conversion from PDF points to page-image pixels; then figure detection
// (pipeline/figures.ts) on synthetic page images.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { segmentPage, textBoxes, type PageFrame, type PixelBox, type SegmentChar, type SegmentLabel } from '../../main/domain/layoutSegmentation.ts';
import { findFigures } from '../../main/pipeline/figures.ts';

/** A4 with an image at 2 pixels per point: pixel = 2 x point, y from the top. */
const FRAME: PageFrame = { widthPt: 595, heightPt: 842, imageWidth: 1190, imageHeight: 1684 };
const BODY = 11;

interface Drawn {
  text: string;
  x: number;
  /** Baseline, points from the bottom. */
  y: number;
  size?: number;
}

/** Character boxes of lines of a fixed-pitch font (0.5 em a glyph), one line_index per line. */
function chars(lines: Drawn[]): SegmentChar[] {
  return lines.flatMap(({ text, x, y, size = BODY }, line_index) =>
    [...text].flatMap((ch, i) =>
      ch === ' ' ? [] : [{ text: ch, line_index, x0: x + i * 0.5 * size, x1: x + (i + 1) * 0.5 * size, y0: y - 0.2 * size, y1: y + 0.8 * size }],
    ),
  );
}

/** Lines of a paragraph, 14 pt apart, starting at baseline y. */
const para = (texts: string[], x: number, y: number, size = BODY): Drawn[] => texts.map((text, i) => ({ text, x, y: y - i * 14, size }));
const words = (n: number, seed = 0) => Array.from({ length: n }, (_, i) => ['sales', 'grew', 'in', 'every', 'region', 'during', 'the', 'quarter'][(i + seed) % 8]).join(' ');
/** Cells of a table row: text at each column x on baseline y. */
const row = (cells: string[], xs: number[], y: number): Drawn[] => cells.flatMap((text, j) => (text ? [{ text, x: xs[j]!, y }] : []));

const labels = (lines: Drawn[]) => segmentPage(chars(lines), FRAME).map((e) => e.label);

const cases: { name: string; lines: Drawn[]; want: SegmentLabel[] }[] = [
  { name: 'an empty page', lines: [], want: [] },
  { name: 'one paragraph', lines: para([words(14), words(14, 1), words(9, 2)], 72, 700), want: ['text'] },
  {
    name: 'a large title over a paragraph',
    lines: [{ text: 'Annual Report', x: 72, y: 770, size: 24 }, ...para([words(14), words(10)], 72, 730)],
    want: ['title', 'text'],
  },
  {
    name: 'a two-line large title',
    lines: [{ text: 'Annual Report', x: 72, y: 780, size: 18 }, { text: 'of the Board', x: 72, y: 760, size: 18 }, ...para([words(14), words(10)], 72, 720)],
    want: ['title', 'text'],
  },
  {
    name: 'a short body-size line at the top of the page',
    lines: [{ text: 'Delivery conditions', x: 72, y: 770 }, ...para([words(14), words(14, 3), words(6)], 72, 740)],
    want: ['title', 'text'],
  },
  {
    name: 'a sentence at the top is no title',
    lines: [{ text: 'Thank you for your order.', x: 72, y: 770 }, ...para([words(14), words(14, 3), words(6)], 72, 740)],
    want: ['text', 'text'],
  },
  {
    name: 'two paragraphs apart',
    lines: [...para([words(14), words(14, 1), words(6)], 72, 700), ...para([words(14, 2), words(5)], 72, 640)],
    want: ['text', 'text'],
  },
  {
    name: 'two justified paragraphs with indented first lines, no gap',
    lines: para(['    ' + words(12), words(14, 1), words(14, 2), '    ' + words(12, 3), words(14, 4), words(5)], 72, 700).map((l) => ({
      ...l,
      text: l.text.padEnd(86, 'x'),
    })),
    want: ['text', 'text'],
  },
  {
    name: 'a bulleted list with a hanging indent',
    lines: [
      { text: '•', x: 72, y: 700 }, { text: 'first item', x: 86, y: 700 },
      { text: '•', x: 72, y: 686 }, { text: words(12), x: 86, y: 686 }, { text: words(6, 2), x: 86, y: 672 },
      { text: '•', x: 72, y: 658 }, { text: 'last item', x: 86, y: 658 },
    ],
    want: ['list'],
  },
  {
    name: 'a paragraph followed at line spacing by a dashed list',
    lines: [...para([words(14), words(8)], 72, 700), ...para(['- apples', '- pears', '- plums'], 72, 672)],
    want: ['text', 'list'],
  },
  { name: 'an enumerated list', lines: para(['1. count the stock', '2. compare the books', '3. report'], 72, 700), want: ['list'] },
  { name: 'a list with letters', lines: para(['a) north', 'b) south'], 72, 700), want: ['list'] },
  { name: 'a list with roman numerals', lines: para(['(i) north', '(ii) south', '(iii) west'], 72, 700), want: ['list'] },
  { name: 'one bullet line is text', lines: para(['• only item'], 72, 700), want: ['text'] },
  {
    name: 'a table of three columns',
    lines: [
      ...row(['Region', 'Units', 'Revenue'], [72, 250, 420], 700),
      ...row(['North', '1 204', '96 320.00'], [72, 250, 420], 680),
      ...row(['South', '987', '78 960.00'], [72, 250, 420], 660),
    ],
    want: ['table'],
  },
  {
    name: 'a table with an empty cell and a wrapped cell',
    lines: [
      ...row(['Item', 'Note', 'Amount'], [72, 200, 450], 700),
      ...row(['Chairs', '', '40.00'], [72, 200, 450], 680),
      ...row(['Tables', 'delivered late,', '12.00'], [72, 200, 450], 660),
      ...row(['', 'paid in May', ''], [72, 200, 450], 646),
      ...row(['Lamps', 'none', '8.00'], [72, 200, 450], 626),
    ],
    want: ['table'],
  },
  {
    name: 'a table then a paragraph crossing its columns',
    lines: [
      ...row(['A', 'B', 'C'], [72, 250, 420], 700),
      ...row(['1', '2', '3'], [72, 250, 420], 686),
      ...para([words(14), words(14, 2)], 72, 660),
    ],
    want: ['table', 'text'],
  },
  {
    name: 'one row of three columns is no table',
    lines: [...row(['Date', 'Page', 'Ref'], [72, 250, 420], 700), ...para([words(14), words(9)], 72, 670)],
    want: ['text', 'text', 'text', 'text'],
  },
  {
    name: 'keys and values in two columns are text',
    lines: [...row(['Invoice no.', 'R-2024-001'], [72, 250], 700), ...row(['Date', '2024-03-01'], [72, 250], 686), ...row(['Customer', 'ACME'], [72, 250], 672)],
    want: ['text', 'text'],
  },
  {
    name: 'two text columns side by side',
    lines: [...para([words(7), words(7, 1), words(7, 2), words(4)], 72, 700), ...para([words(7, 3), words(7, 4), words(5)], 320, 700)],
    want: ['text', 'text'],
  },
];

describe('segmentPage labels', () => {
  it.each(cases)('$name', ({ lines, want }) => {
    expect(labels(lines)).toEqual(want);
  });
});

describe('segmentPage boxes', () => {
  it('converts points (origin bottom left) to page-image pixels (origin top left)', () => {
    const [e] = segmentPage(chars([{ text: 'ab', x: 100, y: 702 }]), FRAME);
    // Glyphs 100..111 wide, 699.8..710.8 high in points.
    expect(e).toEqual({ label: 'text', x0: 200, y0: Math.floor((842 - 710.8) * 2), x1: 222, y1: Math.ceil((842 - 699.8) * 2) });
  });

  it('keeps points (y flipped) when the page has no image', () => {
    const [e] = segmentPage(chars([{ text: 'ab', x: 100, y: 702 }]), { ...FRAME, imageWidth: null, imageHeight: null });
    expect(e).toMatchObject({ x0: 100, y0: Math.floor(842 - 710.8), x1: 111, y1: Math.ceil(842 - 699.8) });
  });

  it('boxes each element around its own lines', () => {
    const lines = [{ text: 'Annual Report', x: 72, y: 770, size: 24 }, ...para([words(14), words(10)], 72, 730)];
    const [title, body] = segmentPage(chars(lines), FRAME);
    expect(title).toEqual({ label: 'title', x0: 144, y0: Math.floor((842 - 770 - 0.8 * 24) * 2), x1: 144 + 13 * 24, y1: Math.ceil((842 - 770 + 0.2 * 24) * 2) });
    expect(body!.x0).toBe(144);
    expect(body!.y0).toBe(Math.floor((842 - 730 - 0.8 * BODY) * 2));
    expect(body!.y1).toBe(Math.ceil((842 - 716 + 0.2 * BODY) * 2));
    expect(body!.x1).toBe(144 + words(14).length * BODY);
  });

  it('adds figures and leaves the text inside them to them (labels of a chart)', () => {
    const figure = { x0: 140, y0: 1000, x1: 700, y1: 1400 };
    // A label at y = 842 - 1200 / 2 = 242 points, inside the figure; a paragraph below it.
    const lines = [{ text: 'Sales 2024', x: 100, y: 242 }, ...para([words(14), words(9)], 72, 120)];
    const elements = segmentPage(chars(lines), FRAME, [figure]);
    expect(elements.map((e) => e.label)).toEqual(['figure', 'text']);
    expect(elements[0]).toEqual({ label: 'figure', ...figure });
  });

  it('orders elements top to bottom and does not depend on the order of the characters', () => {
    const lines = [
      { text: 'Annual Report', x: 72, y: 770, size: 24 },
      ...para([words(14), words(10)], 72, 730),
      ...row(['A', 'B', 'C'], [72, 250, 420], 600),
      ...row(['1', '2', '3'], [72, 250, 420], 580),
      ...para(['- apples', '- pears'], 72, 540),
    ];
    const forward = segmentPage(chars(lines), FRAME);
    expect(forward.map((e) => e.label)).toEqual(['title', 'text', 'table', 'list']);
    const shuffled = chars(lines).map((c, i) => ({ c, k: (i * 7919) % 101 })).sort((a, b) => a.k - b.k).map((x) => x.c);
    expect(segmentPage(shuffled, FRAME)).toEqual(forward);
  });

  it('gives the word boxes figure detection must leave alone', () => {
    expect(textBoxes(chars([{ text: 'ab cd', x: 100, y: 702 }]), FRAME)).toEqual([
      { x0: 200, y0: (842 - 710.8) * 2, x1: 222, y1: (842 - 699.8) * 2 },
      { x0: 233, y0: (842 - 710.8) * 2, x1: 255, y1: (842 - 699.8) * 2 },
    ]);
  });

  it('segments a dense page in a few milliseconds', () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({ text: words(16, i), x: 72, y: 800 - i * 12.5, size: 10 }));
    const input = chars(lines);
    // The median of several runs: other processes may take the CPU for a while (about 3 ms when idle).
    const times = Array.from({ length: 15 }, () => {
      const start = performance.now();
      segmentPage(input, FRAME);
      return performance.now() - start;
    }).sort((a, b) => a - b);
    expect(times[7]).toBeLessThan(25);
  });
});

/** A grey page image: `paint` sets pixels; PNG like the stored page images. */
async function pageImage(width: number, height: number, paint: (set: (box: PixelBox, grey: number) => void) => void, paper = 255) {
  const px = Buffer.alloc(width * height, paper);
  paint(({ x0, y0, x1, y1 }, grey) => {
    for (let y = y0; y < y1; y++) px.fill(grey, y * width + x0, y * width + x1);
  });
  return sharp(px, { raw: { width, height, channels: 1 } }).png().toBuffer();
}

const outline = (b: PixelBox, t: number): PixelBox[] => [
  { ...b, y1: b.y0 + t }, { ...b, y0: b.y1 - t }, { ...b, x1: b.x0 + t }, { ...b, x0: b.x1 - t },
];
const PHOTO = { x0: 100, y0: 200, x1: 500, y1: 600 };
/** Text lines as glyph-like ink (alternating dark and light runs) with their word boxes. */
const textLines = (x0: number, y0: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ x0, y0: y0 + i * 30, x1: x0 + 300, y1: y0 + i * 30 + 20 }));
const glyphs = (set: (b: PixelBox, g: number) => void, lines: PixelBox[]) => {
  for (const l of lines) for (let x = l.x0; x < l.x1; x += 6) set({ x0: x, y0: l.y0 + 2, x1: x + 3, y1: l.y1 - 4 }, 30);
};
const iou = (a: PixelBox, b: PixelBox) => {
  const inter = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  return inter / ((a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter);
};

describe('findFigures', () => {
  const W = 1000;
  const H = 1414;
  const figureCases: { name: string; paint: (set: (b: PixelBox, g: number) => void) => void; text?: PixelBox[]; paper?: number; want: PixelBox[] }[] = [
    { name: 'a blank page', paint: () => {}, want: [] },
    { name: 'a photo', paint: (set) => set(PHOTO, 90), want: [PHOTO] },
    { name: 'a light grey drawing', paint: (set) => set(PHOTO, 225), want: [PHOTO] },
    {
      name: 'a photo with a caption printed on it',
      paint: (set) => set(PHOTO, 90),
      text: [{ x0: 120, y0: 560, x1: 380, y1: 585 }],
      want: [PHOTO],
    },
    {
      name: 'a line chart (sparse ink, no text in it)',
      paint: (set) => {
        set({ x0: 100, y0: 200, x1: 104, y1: 600 }, 0);
        set({ x0: 100, y0: 596, x1: 500, y1: 600 }, 0);
        for (let x = 104; x < 500; x += 2) set({ x0: x, y0: 580 - Math.round(((x - 104) * 360) / 396), x1: x + 4, y1: 586 - Math.round(((x - 104) * 360) / 396) }, 0);
      },
      want: [PHOTO],
    },
    { name: 'text alone', paint: (set) => glyphs(set, textLines(100, 100, 12)), text: textLines(100, 100, 12), want: [] },
    {
      name: 'a frame around a paragraph',
      paint: (set) => {
        for (const b of outline({ x0: 80, y0: 80, x1: 440, y1: 480 }, 3)) set(b, 0);
        glyphs(set, textLines(100, 100, 12));
      },
      text: textLines(100, 100, 12),
      want: [],
    },
    {
      name: 'the rules of a table',
      paint: (set) => {
        for (let y = 90; y <= 450; y += 30) set({ x0: 90, y0: y, x1: 710, y1: y + 3 }, 0);
        for (const x of [90, 300, 500, 707]) set({ x0: x, y0: 90, x1: x + 3, y1: 453 }, 0);
        glyphs(set, textLines(100, 95, 12));
      },
      text: textLines(100, 95, 12),
      want: [],
    },
    { name: 'an underline', paint: (set) => set({ x0: 100, y0: 300, x1: 700, y1: 304 }, 0), want: [] },
    { name: 'specks', paint: (set) => [[50, 50], [600, 900], [300, 1200]].forEach(([x, y]) => set({ x0: x!, y0: y!, x1: x! + 12, y1: y! + 12 }, 0)), want: [] },
    { name: 'a photo on grey paper', paint: (set) => set(PHOTO, 60), paper: 232, want: [PHOTO] },
    { name: 'a dark page', paint: (set) => set(PHOTO, 255), paper: 40, want: [] },
  ];

  it.each(figureCases)('$name', async ({ paint, text = [], paper, want }) => {
    const found = await findFigures(await pageImage(W, H, paint, paper), text, W, H);
    expect(found).toHaveLength(want.length);
    want.forEach((w, i) => expect(iou(found[i]!, w), JSON.stringify(found[i])).toBeGreaterThan(0.9));
  });

  it('answers in the page image pixels it was given, whatever the stored image size', async () => {
    const png = await pageImage(W, H, (set) => set(PHOTO, 90));
    const [found] = await findFigures(png, [], W / 2, H / 2);
    expect(iou(found!, { x0: 50, y0: 100, x1: 250, y1: 300 })).toBeGreaterThan(0.9);
  });

  it('takes a few tens of milliseconds for a 1414 x 2000 page', async () => {
    const png = await pageImage(1414, 2000, (set) => {
      glyphs(set, textLines(150, 150, 30));
      set({ x0: 150, y0: 1200, x1: 900, y1: 1800 }, 90);
    });
    const text = textLines(150, 150, 30);
    await findFigures(png, text, 1414, 2000);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      expect(await findFigures(png, text, 1414, 2000)).toHaveLength(1);
      times.push(performance.now() - start);
    }
    // The median; about 35 ms on an idle machine, the bound leaves room for a busy one.
    expect(times.sort((a, b) => a - b)[2]).toBeLessThan(150);
  });
});
