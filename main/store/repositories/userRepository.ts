// Users and their API tokens.
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import type { UserRow } from '../schema.ts';

export class UserRepository {
  constructor(private readonly db: Db) {}

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Emails compare case-insensitively (the column is `collate nocase`). */
  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.trim()).executeTakeFirst();
  }

  findByIds(ids: number[]): Promise<UserRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  }

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id').execute();
  }

  count(): Promise<number> {
    return this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  async create(input: { email: string; passwordHash: string; name?: string; isAdmin?: boolean }): Promise<UserRow> {
    const t = now();
    return this.db
      .insertInto('users')
      .values({
        email: input.email.trim(),
        password_hash: input.passwordHash,
        name: input.name ?? '',
        is_admin: input.isAdmin ? 1 : 0,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash, updated_at: now() }).where('id', '=', id).execute();
  }

  async remove(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  findTokenByUser(userId: number) {
    return this.db.selectFrom('auth_tokens').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async userByTokenHash(tokenHash: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .selectAll('users')
      .where('auth_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async insertToken(userId: number, nonce: string, tokenHash: string): Promise<void> {
    await this.db.insertInto('auth_tokens').values({ user_id: userId, nonce, token_hash: tokenHash, created_at: now() }).execute();
  }

  async deleteToken(userId: number): Promise<boolean> {
    const r = await this.db.deleteFrom('auth_tokens').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
