// Copies every row of a desktop store (SQLite) into an empty team store (PostgreSQL) of the same schema
// version, ids intact, so that links, API clients' stored ids and the files' content keys stay valid
// (`folio export-to-team`, main/team/exportToTeam.ts). Generic over the schema: the tables and the order
// they must be filled in (parents before the rows that reference them) are read from SQLite itself, and
// each value is given the type of its target column, so a migration that adds a table or a column needs
// nothing here.
import { sql, type Kysely } from 'kysely';

/**
 * Not copied: the migration log (the target keeps its own, and must be at the same version), the job
 * table (the team server's jobs run on its own queue; the export refuses while jobs are unfinished) and
 * SQLite's full-text index (the target indexes the text itself).
 */
const SKIPPED = new Set(['folio_migrations', 'jobs']);

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table, small enough for long texts. */
const BATCH = 200;

export interface CopyResult {
  /** Rows copied per table, in the order the tables were filled. */
  rows: Record<string, number>;
}

/** The source's tables, each after every table it references (SQLite's own foreign-key catalogue). */
export async function tablesInDependencyOrder(source: Kysely<any>): Promise<string[]> {
  const all = await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(source);
  const virtual = all.rows.filter((t) => /^create virtual table/i.test(t.sql ?? '')).map((t) => t.name);
  // A virtual table's shadow tables (documents_fts_data, ..._idx, ...) belong to it.
  const tables = all.rows.map((t) => t.name).filter((name) => !virtual.some((v) => name === v || name.startsWith(`${v}_`)) && !SKIPPED.has(name));
  const parents = new Map<string, Set<string>>();
  for (const t of tables) {
    const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${t})`.execute(source);
    parents.set(t, new Set(fks.rows.map((r) => r.table).filter((p) => p !== t && tables.includes(p))));
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!ready.length) throw new Error(`The tables ${tables.filter((t) => !placed.has(t)).join(', ')} reference each other in a loop; they cannot be copied in order.`);
    for (const t of ready) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

type ColumnKind = 'boolean' | 'json' | 'other';

/** The target's column kinds per table (PostgreSQL's catalogue). */
async function targetColumns(target: Kysely<any>): Promise<Map<string, Map<string, ColumnKind>>> {
  const r = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema()`.execute(target);
  const out = new Map<string, Map<string, ColumnKind>>();
  for (const c of r.rows) {
    const kind: ColumnKind = c.data_type === 'boolean' ? 'boolean' : c.data_type === 'json' || c.data_type === 'jsonb' ? 'json' : 'other';
    if (!out.has(c.table_name)) out.set(c.table_name, new Map());
    out.get(c.table_name)!.set(c.column_name, kind);
  }
  return out;
}

/** Tables of the target that hold rows already (the export goes only into an empty team store). */
export async function nonEmptyTables(target: Kysely<any>, tables: readonly string[]): Promise<string[]> {
  const busy: string[] = [];
  for (const t of tables) {
    const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(target);
    if (Number(r.rows[0].n) > 0) busy.push(t);
  }
  return busy;
}

/**
 * Copies the rows of `tables` (dependency order) from the SQLite source into the PostgreSQL target in one
 * transaction of the target's (with the token secret, when given), then moves each id sequence past the highest copied id so that the team
 * server's next row does not collide. Nothing of it is visible until it all is.
 */
export async function copyRows(source: Kysely<any>, target: Kysely<any>, tables: readonly string[], opts: { secret?: Buffer } = {}): Promise<CopyResult> {
  const columns = await targetColumns(target);
  const rows: Record<string, number> = {};
  await target.transaction().execute(async (trx) => {
    for (const table of tables) {
      const kinds = columns.get(table);
      if (!kinds) throw new Error(`The team store has no table "${table}": is it at the same version as this Folio?`);
      let copied = 0;
      for (let offset = 0; ; offset += BATCH) {
        const batch = await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by rowid limit ${BATCH} offset ${offset}`.execute(source);
        if (!batch.rows.length) break;
        const values = batch.rows.map((row) => {
          const out: Record<string, unknown> = {};
          for (const [col, v] of Object.entries(row)) {
            const kind = kinds.get(col);
            if (!kind) throw new Error(`The team store's table "${table}" has no column "${col}": is it at the same version as this Folio?`);
            out[col] = v === null ? null : kind === 'boolean' ? v === 1 || v === true : v;
          }
          return out;
        });
        await trx.insertInto(table).values(values).execute();
        copied += values.length;
      }
      rows[table] = copied;
      if (kinds.has('id')) {
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)
                  where pg_get_serial_sequence(${table}, 'id') is not null`.execute(trx);
      }
    }
    // In the same transaction: rows and the secret that keys their tokens arrive together or not at all.
    if (opts.secret) await replaceSharedSecret(trx, opts.secret);
  });
  return { rows };
}

/**
 * Makes `secret` the team store's token secret (pgStore.ts keeps it in folio_secret), so that the API
 * tokens made on the desktop, which are keyed by its secret, stay valid on the team server.
 */
export async function replaceSharedSecret(target: Kysely<any>, secret: Buffer): Promise<void> {
  await sql`insert into folio_secret (id, value) values (1, ${secret}) on conflict (id) do update set value = excluded.value`.execute(target);
}
