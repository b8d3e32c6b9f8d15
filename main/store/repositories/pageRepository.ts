// Pages of processed documents: their sizes, image blobs and character boxes.
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { codecs, type PageRow } from '../schema.ts';
import type { CharBox } from '../../domain/geometry.ts';
import { decodeChars, encodeChars } from '../pageChars.ts';

export type PageSummary = Omit<PageRow, 'chars'>;

export interface NewPage {
  number: number;
  widthPt: number;
  heightPt: number;
  rotation: number;
  imageBlob: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  thumbnailBlob: string | null;
  hasTextLayer: boolean;
  ocr: boolean;
  chars: readonly CharBox[];
  /** How OCR read the page; absent for pages with a text layer. */
  ocrRecord?: { engine: string; version: string; turn: number; osdConfidence: number | null };
}

const SUMMARY = [
  'id', 'document_id', 'number', 'width_pt', 'height_pt', 'rotation', 'image_blob', 'image_width', 'image_height',
  'thumbnail_blob', 'has_text_layer', 'ocr', 'created_at', 'ocr_engine', 'ocr_engine_version', 'ocr_turn', 'ocr_osd_confidence',
] as const;

export class PageRepository {
  constructor(private readonly db: Db) {}

  /** Writes a document's pages, replacing any earlier ones: a re-run of processing never duplicates pages. */
  async replaceForDocument(documentId: number, pages: readonly NewPage[]): Promise<void> {
    await this.db.deleteFrom('pages').where('document_id', '=', documentId).execute();
    const t = now();
    for (const p of pages) {
      await this.db
        .insertInto('pages')
        .values(
          codecs.pages.write({
            document_id: documentId,
            number: p.number,
            width_pt: p.widthPt,
            height_pt: p.heightPt,
            rotation: p.rotation,
            image_blob: p.imageBlob,
            image_width: p.imageWidth,
            image_height: p.imageHeight,
            thumbnail_blob: p.thumbnailBlob,
            has_text_layer: p.hasTextLayer,
            ocr: p.ocr,
            chars: encodeChars(p.chars),
            created_at: t,
            ocr_engine: p.ocrRecord?.engine ?? null,
            ocr_engine_version: p.ocrRecord?.version ?? null,
            ocr_turn: p.ocrRecord?.turn ?? null,
            ocr_osd_confidence: p.ocrRecord?.osdConfidence ?? null,
          }),
        )
        .execute();
    }
  }

  /** Rewrites the character boxes of one page (a region read again moves the offsets of later pages). */
  async updateChars(documentId: number, number: number, chars: readonly CharBox[]): Promise<void> {
    await this.db.updateTable('pages').set({ chars: encodeChars(chars) }).where('document_id', '=', documentId).where('number', '=', number).execute();
  }

  listForDocument(documentId: number): Promise<PageSummary[]> {
    return this.db.selectFrom('pages').select(SUMMARY).where('document_id', '=', documentId).orderBy('number').execute().then(codecs.pages.readAll);
  }

  findById(id: number): Promise<PageSummary | undefined> {
    return this.db.selectFrom('pages').select(SUMMARY).where('id', '=', id).executeTakeFirst().then(codecs.pages.read);
  }

  findByNumber(documentId: number, number: number): Promise<PageRow | undefined> {
    return this.db.selectFrom('pages').selectAll().where('document_id', '=', documentId).where('number', '=', number).executeTakeFirst().then(codecs.pages.read);
  }

  /**
   * Every character box of a document in text order, and each page's height (index = page_index).
   * `pageIndexes` limits the read to those pages (an annotation's spans touch few of a long document's).
   */
  async charsForDocument(documentId: number, pageIndexes?: readonly number[]): Promise<{ chars: CharBox[]; heights: number[] }> {
    if (pageIndexes && !pageIndexes.length) return { chars: [], heights: [] };
    let query = this.db.selectFrom('pages').select(['number', 'height_pt', 'chars']).where('document_id', '=', documentId);
    if (pageIndexes) query = query.where('number', 'in', pageIndexes.map((i) => i + 1));
    const rows = await query.orderBy('number').execute();
    const heights: number[] = [];
    const chars: CharBox[] = [];
    for (const r of rows) {
      heights[r.number - 1] = r.height_pt;
      for (const c of decodeChars(r.chars, r.number - 1, r.height_pt)) chars.push(c);
    }
    return { chars, heights };
  }

  /** Blob keys the pages refer to (images and thumbnails), for the blob sweep. */
  async blobKeys(): Promise<string[]> {
    const rows = await this.db.selectFrom('pages').select(['image_blob', 'thumbnail_blob']).execute();
    return rows.flatMap((r) => [r.image_blob, r.thumbnail_blob]).filter((k): k is string => !!k);
  }
}
