// Migration 0002 (public documents, normalized annotation values) on a real SQLite file: data written
// under 0001 survives it, the new columns have their defaults and work, and it reverts cleanly.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedMigrations, migrateDownOne, migrateUp, openStore, type OpenedStore } from '../../main/store/db.ts';
import { tempDir } from '../helpers/testServer.ts';

let store: OpenedStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const columns = (s: OpenedStore, table: string) => (s.sqlite.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);

describe('migration 0002_public_documents', () => {
  it('keeps 0001 data, adds is_public and normalized, and reverts', async () => {
    store = openStore(path.join(tempDir(), 'folio.db'));
    await migrateUp(store.db, '0001_initial');
    expect(await appliedMigrations(store.db)).toEqual(['0001_initial']);
    const t = '2024-05-01T10:00:00.000Z';
    store.sqlite.exec(`
      insert into users (id, email, password_hash, created_at, updated_at) values (1, 'a@b.c', 'x', '${t}', '${t}');
      insert into projects (id, name, created_by, created_at, updated_at) values (1, 'P', 1, '${t}', '${t}');
      insert into label_sets (id, project_id, name, is_default, created_at, updated_at) values (1, 1, 'Invoice', 1, '${t}', '${t}');
      insert into categories (id, project_id, name, created_at, updated_at) values (1, 1, 'Invoice', '${t}', '${t}');
      insert into labels (id, project_id, name, created_at, updated_at) values (1, 1, 'Total', '${t}', '${t}');
      insert into documents (id, project_id, category_id, data_file_name, blob_key, file_size, created_at, updated_at)
        values (1, 1, 1, 'a.pdf', '${'0'.repeat(64)}', 3, '${t}', '${t}');
      insert into annotation_sets (id, document_id, label_set_id, created_at) values (1, 1, 1, '${t}');
      insert into annotations (id, document_id, annotation_set_id, label_id, spans, offset_string, created_at, updated_at)
        values (1, 1, 1, 1, '[]', '12,50', '${t}', '${t}');
    `);

    expect(await migrateUp(store.db, '0002_public_documents')).toEqual(['0002_public_documents']);
    expect(store.sqlite.prepare('select id, data_file_name, is_public from documents').all()).toEqual([{ id: 1, data_file_name: 'a.pdf', is_public: 0 }]);
    expect(store.sqlite.prepare('select id, offset_string, normalized from annotations').all()).toEqual([{ id: 1, offset_string: '12,50', normalized: null }]);

    store.sqlite.prepare('update documents set is_public = 1 where id = 1').run();
    store.sqlite.prepare('update annotations set normalized = ? where id = 1').run(JSON.stringify(12.5));
    expect(store.sqlite.prepare('select is_public from documents').pluck().get()).toBe(1);
    expect(JSON.parse(store.sqlite.prepare('select normalized from annotations').pluck().get() as string)).toBe(12.5);
    expect(() => store!.sqlite.prepare('update documents set is_public = null').run()).toThrow(/NOT NULL/);

    expect(await migrateDownOne(store.db)).toBe('0002_public_documents');
    expect(columns(store, 'documents')).not.toContain('is_public');
    expect(columns(store, 'annotations')).not.toContain('normalized');
    expect(store.sqlite.prepare('select count(*) from annotations').pluck().get()).toBe(1);
    expect(store.sqlite.pragma('foreign_key_check')).toEqual([]);

    await migrateUp(store.db);
    expect(columns(store, 'documents')).toContain('is_public');
    expect(columns(store, 'annotations')).toContain('normalized');
  });
});
