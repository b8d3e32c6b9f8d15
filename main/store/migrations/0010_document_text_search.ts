// Full-text search over document text (the list's `?q=`): an FTS5 index of documents.text, an external
// content table (the text is stored once, in documents) kept in step by triggers, so every write that sets
// text (processing, reading again, a region read) is indexed in its own transaction without the services
// knowing. Only a change of `text` touches the index: status updates during processing do not.
//
// PostgreSQL has no FTS5: there the index is a GIN index over the text's tsvector (the 'simple'
// configuration: no stemming, folds case) of folio_search_text(text): the text without its diacritics (the
// unaccent extension) and with punctuation as spaces, so that words split where unicode61 splits them
// ("a-b", "x@y.com" are words of their own), in an immutable function an index may use. PostgreSQL keeps
// the index in step by itself; the query side (store/textSearch.ts) matches against the same expression.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { createExtensions } from './columns.ts';

/** The indexed expression on PostgreSQL (a query matches against exactly this to use the index). */
export const PG_TEXT_VECTOR = sql`to_tsvector('simple'::regconfig, folio_search_text(documents.text))`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return upPostgres(db);
  // remove_diacritics 2: "Muller" finds "Müller"; the default tokenizer folds case.
  await sql`create virtual table documents_fts using fts5(text, content='documents', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(db);
  await sql`create trigger documents_fts_insert after insert on documents when new.text is not null begin
    insert into documents_fts(rowid, text) values (new.id, new.text);
  end`.execute(db);
  // An external-content delete must name the text that was indexed: the old row's.
  await sql`create trigger documents_fts_delete after delete on documents when old.text is not null begin
    insert into documents_fts(documents_fts, rowid, text) values ('delete', old.id, old.text);
  end`.execute(db);
  await sql`create trigger documents_fts_update after update of text on documents begin
    insert into documents_fts(documents_fts, rowid, text) select 'delete', old.id, old.text where old.text is not null;
    insert into documents_fts(rowid, text) select new.id, new.text where new.text is not null;
  end`.execute(db);
  // Documents processed before this migration.
  await sql`insert into documents_fts(rowid, text) select id, text from documents where text is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists documents_text_search`.execute(db);
    await sql`drop function if exists folio_search_text(text)`.execute(db);
    return;
  }
  for (const t of ['documents_fts_update', 'documents_fts_delete', 'documents_fts_insert']) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
  await sql`drop table if exists documents_fts`.execute(db);
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await createExtensions(db, ['unaccent']);
  // unaccent() is only stable (its dictionary could change); naming the dictionary with its schema makes
  // the wrapper safe to declare immutable, which an index expression requires.
  const r = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
  const schema = sql.id(r.rows[0].schema);
  await sql`create or replace function folio_search_text(text) returns text language sql immutable strict parallel safe
    as $$ select regexp_replace(${schema}.unaccent(${sql.lit(`${r.rows[0].schema}.unaccent`)}::regdictionary, $1), '[[:punct:]]+', ' ', 'g') $$`.execute(db);
  await sql`create index documents_text_search on documents using gin ((${PG_TEXT_VECTOR}))`.execute(db);
}
