// Full-text search over document text (the list's `?q=`): an FTS5 index of documents.text, an external
// content table (the text is stored once, in documents) kept in step by triggers, so every write that sets
// text (processing, reading again, a region read) is indexed in its own transaction without the services
// knowing. Only a change of `text` touches the index: status updates during processing do not.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
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
  for (const t of ['documents_fts_update', 'documents_fts_delete', 'documents_fts_insert']) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
  await sql`drop table if exists documents_fts`.execute(db);
}
