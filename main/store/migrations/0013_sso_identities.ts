// Single sign-on identities (OpenID Connect Core 5.7): a person signed in by a provider is its issuer and
// subject, never an email. Each row links one such identity to the Folio account it reaches
// (main/auth/ssoAccounts.ts); an account may have several (a password account that also signs in by
// single sign-on, the same person at two providers), an identity only one. `email` is the address the
// provider sent at the last sign-in and `vouched` whether the link was vouched for when it was made
// (an email the provider verified or FOLIO_OIDC_TRUST_EMAILS=all trusts, or an administrator's
// `folio user sso-link`): an account made from an email nobody vouched for is never joined by another
// identity through that email.
import type { Kysely } from 'kysely';
import { columnTypes } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('sso_identities')
    .addColumn('id', 'integer', t.id)
    // The `iss` claim: the provider's issuer URL, compared exactly (case and all, as the spec says).
    .addColumn('issuer', 'text', (c) => c.notNull())
    // The `sub` claim: unique and never reassigned within its issuer.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('vouched', t.bool, (c) => c.notNull().defaultTo(t.flag(false)))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sso_identities_issuer_subject', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('sso_identities_user').on('sso_identities').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_identities').execute();
}
