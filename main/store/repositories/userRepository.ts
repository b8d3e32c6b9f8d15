// Users, their API tokens and their single sign-on identities (issuer + subject, migration 0013).
import type { Db } from '../db.ts';
import { now } from '../db.ts';
import { sql } from 'kysely';
import { isPostgres } from '../dialect.ts';
import { codecs, type SsoIdentityRow, type UserRow } from '../schema.ts';

const users = codecs.users;
const identities = codecs.ssoIdentities;

export class UserRepository {
  constructor(private readonly db: Db) {}

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst().then(users.read);
  }

  /** Emails compare case-insensitively (the column is `collate nocase`). */
  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.trim()).executeTakeFirst().then(users.read);
  }

  findByIds(ids: number[]): Promise<UserRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute().then(users.readAll);
  }

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id').execute().then(users.readAll);
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
    const row = await this.db
      .insertInto('users')
      .values(users.write({
        email: input.email.trim(),
        password_hash: input.passwordHash,
        name: input.name ?? '',
        is_admin: !!input.isAdmin,
        created_at: t,
        updated_at: t,
      }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return users.read(row);
  }

  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash, updated_at: now() }).where('id', '=', id).execute();
  }

  async setName(id: number, name: string): Promise<void> {
    await this.db.updateTable('users').set({ name, updated_at: now() }).where('id', '=', id).execute();
  }

  /** How many administrators there are. */
  async countAdmins(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_admin', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Takes administration from `id` unless that would leave no administrator; false when it would (nothing
   * changed). One statement, so that two administrators demoting each other at once cannot both succeed on
   * SQLite; on PostgreSQL the administrators' rows are locked first, in the caller's transaction.
   */
  async demoteUnlessLast(id: number): Promise<boolean> {
    if (isPostgres(this.db)) await sql`select id from users where is_admin = true order by id for update`.execute(this.db);
    const r = await this.db
      .updateTable('users')
      .set(users.write({ is_admin: false, updated_at: now() }))
      .where('id', '=', id)
      .where(sql<boolean>`(select count(*) from users other where other.id <> ${id} and other.is_admin = ${1}) > 0`)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Grants or takes away administration (single sign-on's group claim, main/auth/ssoAccounts.ts). */
  async setAdmin(id: number, isAdmin: boolean): Promise<void> {
    await this.db.updateTable('users').set(users.write({ is_admin: isAdmin, updated_at: now() })).where('id', '=', id).execute();
  }

  /** The account an OpenID Connect identity signs in to, and the identity's row; undefined when it never signed in. */
  async findBySsoIdentity(issuer: string, subject: string): Promise<{ user: UserRow; identity: SsoIdentityRow } | undefined> {
    const identity = await this.db
      .selectFrom('sso_identities')
      .selectAll()
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst()
      .then(identities.read);
    if (!identity) return undefined;
    const user = await this.findById(identity.user_id);
    return user && { user, identity };
  }

  /** The single sign-on identities of an account. */
  ssoIdentitiesOf(userId: number): Promise<SsoIdentityRow[]> {
    return this.db.selectFrom('sso_identities').selectAll().where('user_id', '=', userId).orderBy('id').execute().then(identities.readAll);
  }

  /** Links an identity to an account (a UniqueViolation when the identity is linked already). */
  async linkSsoIdentity(input: { userId: number; issuer: string; subject: string; email: string | null; vouched: boolean }): Promise<void> {
    const t = now();
    await this.db
      .insertInto('sso_identities')
      .values(identities.write({ issuer: input.issuer, subject: input.subject, user_id: input.userId, email: input.email, vouched: input.vouched, created_at: t, last_sign_in_at: t }))
      .execute();
  }

  /** Removes the link of an identity to an account; false when there was none. */
  async unlinkSsoIdentity(userId: number, issuer: string, subject: string): Promise<boolean> {
    const r = await this.db.deleteFrom('sso_identities').where('user_id', '=', userId).where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Records an identity's sign-in and the email it sent this time. */
  async touchSsoIdentity(id: number, email: string | null): Promise<void> {
    await this.db.updateTable('sso_identities').set({ email, last_sign_in_at: now() }).where('id', '=', id).execute();
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
      .executeTakeFirst()
      .then(users.read);
  }

  async insertToken(userId: number, nonce: string, tokenHash: string): Promise<void> {
    await this.db.insertInto('auth_tokens').values({ user_id: userId, nonce, token_hash: tokenHash, created_at: now() }).execute();
  }

  async deleteToken(userId: number): Promise<boolean> {
    const r = await this.db.deleteFrom('auth_tokens').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
