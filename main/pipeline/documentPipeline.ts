// The stages that turn an uploaded file into pages with text, character boxes, images and a searchable
// PDF, with no database in sight (processor.ts stores the result): recognise the file, make a PDF of it
// (office files through LibreOffice, images as image pages), take each page's text layer with pdf.js,
// OCR the pages that have none, render page images and thumbnails, lay the text out, add an invisible
// text layer to the OCR'd pages.
import { sniff } from './sniff.ts';
import { UnwritablePdfError } from './errors.ts';
import { inspectPdf } from './pdfCheck.ts';
import { convertOfficeToPdf } from './office.ts';
import { normalizeImage } from './images.ts';
import { extractPdfText, type PdfChar } from './pdfText.ts';
import { layoutText, type LayoutInputChar, type TextLayout } from './textLayout.ts';
import { renderPages, type RenderedImage } from './render.ts';
import { buildSearchablePdf, imagePagesToPdf, type WordBox } from './searchablePdf.ts';
import { checkPageCount, type PipelineLimits } from './limits.ts';
import type { OcrPool } from './ocr/ocrPool.ts';
import type { PageSource } from './ocr/routing.ts';
import { turnImage } from './ocr/preprocess.ts';

export interface PipelineInput {
  bytes: Uint8Array;
  /** Tesseract codes (the project's OCR languages). */
  langs: string[];
  ocr: OcrPool;
  limits: PipelineLimits;
  /** Called between pages: may throw to stop (the job runner's safe point). */
  heartbeat?: () => Promise<void>;
  /** The bytes are an upload that passed the upload check (uploadCheck.ts): its streams were measured
   * then, so they are not inflated again here (on a scan that is a few hundred ms before OCR can start). */
  checkedAtUpload?: boolean;
  /** Receives each page's images as they are rendered, to store them (returns their keys). */
  storeImage: (png: Uint8Array) => Promise<string>;
  /** The document was uploaded as an image of this format, though `bytes` are the PDF made from it (a
   * document read again): its pages are routed to an OCR engine as the uploaded image's pages were. */
  uploadedImage?: PageSource['image'];
}

export interface PipelinePage {
  number: number;
  widthPt: number;
  heightPt: number;
  rotation: number;
  hasTextLayer: boolean;
  ocr: boolean;
  image?: { key: string; widthPx: number; heightPx: number };
  thumbnailKey?: string;
  /** How an OCR'd page was read: the engine and version, and the clockwise turn OCR applied to make it
   * upright (already in widthPt, heightPt, rotation, the images and the searchable PDF). */
  ocrInfo?: { engine: string; version: string; turn: number; osdConfidence: number | null };
}

export interface PipelineResult {
  /** The PDF the text was read from; the upload itself when it was a sound PDF. */
  pdf: Uint8Array;
  /** True when `searchable` is byte for byte the upload. */
  searchableIsUpload: boolean;
  searchable: Uint8Array;
  pages: PipelinePage[];
  layout: TextLayout;
  ocrSeconds: number;
  ocrConfidence: number | null;
}

/** Makes the PDF a document is read from: the upload, its repair, its conversion, or its images (then
 * `images` says each page's source image format, for the OCR's choice of engine). */
async function documentPdf(bytes: Uint8Array, limits: PipelineLimits, checkedAtUpload = false): Promise<{ pdf: Uint8Array; isUpload: boolean; restricted: boolean; images?: PageSource[] }> {
  const kind = sniff(bytes);
  if (kind.kind === 'pdf') {
    const inspected = await inspectPdf(bytes, { maxPages: limits.maxPages, maxStreamBytes: checkedAtUpload ? Infinity : limits.maxStreamBytes, maxImagePixels: limits.maxImagePixels });
    return { pdf: inspected.bytes, isUpload: inspected.bytes === bytes || Buffer.compare(Buffer.from(inspected.bytes), Buffer.from(bytes)) === 0, restricted: inspected.restricted };
  }
  if (kind.kind === 'office') {
    const converted = await convertOfficeToPdf(bytes, kind.format as Parameters<typeof convertOfficeToPdf>[1]);
    const inspected = await inspectPdf(converted, { maxPages: limits.maxPages, maxStreamBytes: limits.maxStreamBytes, maxImagePixels: limits.maxImagePixels });
    return { pdf: inspected.bytes, isUpload: false, restricted: inspected.restricted };
  }
  const images = await normalizeImage(bytes, kind.kind, { maxPixels: limits.maxImagePixels, maxPages: limits.maxPages });
  checkPageCount(images.length, limits.maxPages);
  const pdf = await imagePagesToPdf(images.map((p) => ({ image: p.data, widthPt: (p.widthPx * 72) / p.dpi, heightPt: (p.heightPx * 72) / p.dpi })));
  return { pdf, isUpload: false, restricted: false, images: images.map((p) => ({ image: p.format })) };
}

export async function runPipeline(input: PipelineInput): Promise<PipelineResult> {
  const { pdf, isUpload, restricted, images: uploadImages } = await documentPdf(input.bytes, input.limits, input.checkedAtUpload);
  const textPages = await extractPdfText(pdf);
  const imageUpload = input.uploadedImage;
  const images = uploadImages ?? (imageUpload ? textPages.map((): PageSource => ({ image: imageUpload })) : undefined);
  checkPageCount(textPages.length, input.limits.maxPages);

  const chars = new Map<number, LayoutInputChar[]>(textPages.map((p) => [p.number, p.chars as PdfChar[]]));
  const words = new Map<number, WordBox[]>();
  const pages = new Map<number, PipelinePage>(
    textPages.map((p) => [p.number, { number: p.number, widthPt: p.width, heightPt: p.height, rotation: p.rotation, hasTextLayer: p.hasTextLayer, ocr: !p.hasTextLayer }]),
  );
  const toOcr = textPages.filter((p) => !p.hasTextLayer).map((p) => p.number);
  const withText = textPages.filter((p) => p.hasTextLayer).map((p) => p.number);

  const keep = async (number: number, image?: RenderedImage, thumbnail?: RenderedImage) => {
    const page = pages.get(number)!;
    if (image) page.image = { key: await input.storeImage(image.png), widthPx: image.widthPx, heightPx: image.heightPx };
    if (thumbnail) page.thumbnailKey = await input.storeImage(thumbnail.png);
  };

  // Pages with a text layer: only their pictures.
  if (withText.length) {
    for await (const r of renderPages(pdf, { pages: withText })) {
      await keep(r.number, r.image, r.thumbnail);
      await input.heartbeat?.();
    }
  }

  // Pages without: rendered for OCR too, and read while the next pages render (bounded by the pool's queue).
  const ocrStarted = performance.now();
  const confidences: number[] = [];
  if (toOcr.length) {
    const reading: Promise<void>[] = [];
    for await (const r of renderPages(pdf, { pages: toOcr, ocr: true })) {
      const ocrImage = r.ocr!;
      reading.push(
        input.ocr
          .recognize(ocrImage.png, { langs: input.langs, dpi: ocrImage.dpi, pageWidthPt: r.widthPt, pageHeightPt: r.heightPt, source: images?.[r.number - 1] })
          .then(async (text) => {
            // A page OCR turned upright is shown upright: its pictures are turned the same way, and the
            // page itself is (by its /Rotate, in the searchable PDF), so boxes, images and PDF agree.
            const turn = text.rotation;
            await keep(r.number, await turnRendered(r.image, turn), await turnRendered(r.thumbnail, turn));
            const page = pages.get(r.number)!;
            if (turn === 90 || turn === 270) [page.widthPt, page.heightPt] = [page.heightPt, page.widthPt];
            page.rotation = (page.rotation + turn) % 360;
            page.ocrInfo = { engine: text.engine, version: text.engineVersion, turn, osdConfidence: text.osd?.confidence ?? null };
            chars.set(r.number, text.chars);
            words.set(r.number, text.words.map(({ text: t, x0, x1, y0, y1 }) => ({ text: t, x0, x1, y0, y1 })));
            if (text.words.length) confidences.push(text.confidence);
          }),
      );
      // A failed page fails the document; stop rendering more as soon as one is known to have failed.
      await Promise.race([input.ocr.waitForRoom(), Promise.all(reading).then(() => undefined)]);
      await input.heartbeat?.();
    }
    await Promise.all(reading);
  }
  const ocrSeconds = (performance.now() - ocrStarted) / 1000;

  const ordered = textPages.map((p) => p.number);
  const layout = layoutText(ordered.map((n) => ({ height: pages.get(n)!.heightPt, chars: chars.get(n) ?? [] })));

  let searchable: Uint8Array;
  let searchableIsUpload = false;
  if (!toOcr.length) {
    searchable = pdf;
    searchableIsUpload = isUpload;
  } else if (restricted) {
    // pdf-lib cannot rewrite a permissions-restricted PDF: its pages become images with the text layer.
    // A property of the file: no retry can change it.
    throw new UnwritablePdfError('This PDF forbids changes, and it has pages without text that need OCR; upload an unrestricted copy.');
  } else {
    try {
      searchable = await buildSearchablePdf(
        pdf,
        ordered.map((n) => {
          const p = pages.get(n)!;
          return p.ocr ? { kind: 'ocr' as const, words: words.get(n) ?? [], widthPt: p.widthPt, heightPt: p.heightPt, turn: p.ocrInfo?.turn } : { kind: 'text' as const };
        }),
      );
    } catch (err) {
      // pdf-lib's rewrite depends on the bytes alone: what fails once fails every time (but memory).
      if (/allocation failed|out of memory/i.test((err as Error)?.message ?? '')) throw err;
      throw new UnwritablePdfError(
        'The PDF is damaged: Folio read its pages but could not write its searchable copy. Upload a repaired copy, for example the file printed again to PDF.',
        { cause: err },
      );
    }
  }
  return {
    pdf,
    searchable,
    searchableIsUpload,
    pages: ordered.map((n) => pages.get(n)!),
    layout,
    ocrSeconds: toOcr.length ? ocrSeconds : 0,
    ocrConfidence: confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : null,
  };
}

/** A rendered picture turned clockwise by `turn` degrees (a multiple of 90). */
async function turnRendered(image: RenderedImage | undefined, turn: number): Promise<RenderedImage | undefined> {
  if (!image || turn % 360 === 0) return image;
  const sideways = turn % 180 !== 0;
  return { ...image, png: await turnImage(image.png, turn, 4), widthPx: sideways ? image.heightPx : image.widthPx, heightPx: sideways ? image.widthPx : image.heightPx };
}
