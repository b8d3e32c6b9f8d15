// Migration 0015 (public links) on a real SQLite file: documents public under 0014 get a random token and stay
// public (by their link), private ones get none, two documents never share a token, and it reverts cleanly.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDownOne, migrateUp, openStore, type OpenedStore } from '../../main/store/db.ts';
import { tempDir } from '../helpers/testServer.ts';

let store: OpenedStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const columns = (s: OpenedStore, table: string) => (s.sqlite.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);

describe('migration 0015_public_links', () => {
  it('gives documents public before it a token of their own, none to private ones, and reverts', async () => {
    store = openStore(path.join(tempDir(), 'folio.db'));
    await migrateUp(store.db, '0014_upload_keys');
    const t = '2024-05-01T10:00:00.000Z';
    store.sqlite.exec(`
      insert into users (id, email, password_hash, created_at, updated_at) values (1, 'a@b.c', 'x', '${t}', '${t}');
      insert into projects (id, name, created_by, created_at, updated_at) values (1, 'P', 1, '${t}', '${t}');
    `);
    for (const [id, pub] of [[1, 1], [2, 0], [3, 1]]) {
      store.sqlite.exec(`insert into documents (id, project_id, data_file_name, blob_key, file_size, is_public, created_at, updated_at)
        values (${id}, 1, 'd${id}.pdf', '${String(id).repeat(64)}', 3, ${pub}, '${t}', '${t}')`);
    }
    expect(await migrateUp(store.db, '0015_public_links')).toEqual(['0015_public_links']);
    const rows = store.sqlite.prepare('select id, is_public, public_token, public_expires_at from documents order by id').all() as { id: number; is_public: number; public_token: string | null; public_expires_at: string | null }[];
    expect(rows.map((r) => [r.id, r.is_public, r.public_token === null, r.public_expires_at])).toEqual([[1, 1, false, null], [2, 0, true, null], [3, 1, false, null]]);
    for (const r of rows.filter((x) => x.is_public)) expect(r.public_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(rows[0].public_token).not.toBe(rows[2].public_token);
    expect(() => store!.sqlite.prepare('update documents set public_token = ? where id = 2').run(rows[0].public_token)).toThrow(/UNIQUE/);

    expect(await migrateDownOne(store.db)).toBe('0015_public_links');
    expect(columns(store, 'documents')).not.toContain('public_token');
    expect(store.sqlite.prepare('select count(*) from documents where is_public = 1').pluck().get()).toBe(2);
    await migrateUp(store.db);
    expect(columns(store, 'documents')).toContain('public_expires_at');
  });
});
