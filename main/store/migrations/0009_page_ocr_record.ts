// What OCR applied to each page it read: the engine and its version ("native", "tesseract 5.3.0"), the
// clockwise turn that made the page upright (0, 90, 180, 270) and how sure orientation detection was.
// All null for pages read from their text layer, and for pages processed before this migration.
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('pages').addColumn('ocr_engine', 'text').execute();
  await db.schema.alterTable('pages').addColumn('ocr_engine_version', 'text').execute();
  await db.schema.alterTable('pages').addColumn('ocr_turn', 'integer').execute();
  // Tesseract's OSD confidence (0 is a guess, clean pages 10 and more); null when OSD could not tell.
  await db.schema.alterTable('pages').addColumn('ocr_osd_confidence', t.double).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['ocr_osd_confidence', 'ocr_turn', 'ocr_engine_version', 'ocr_engine']) await db.schema.alterTable('pages').dropColumn(column).execute();
}
