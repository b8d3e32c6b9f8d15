// Which Folio account a person signed in by the OpenID Connect provider is: the account with the email
// the provider vouches for, made on their first sign-in. The rules:
// - the email claim is required, and when the provider sends email_verified it must be true;
// - the provider is trusted with emails: an account made before with a password is the same account;
// - an account made here gets a random password nobody knows (set one with `folio user password` to let
//   it sign in locally too), its name from the name (or preferred_username) claim;
// - administrators: FOLIO_ADMIN_EMAIL's account always is one (the first administrator of an install
//   whose local passwords are off); with FOLIO_OIDC_ADMIN_GROUP set, every sign-in makes the account an
//   administrator when the group claim lists that group and takes administration away when it does not,
//   so the provider's groups decide; without it, sign-ins leave administration as it is.
import { randomBytes } from 'node:crypto';
import type { Repos } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import type { OidcConfig } from '../config.ts';
import { HttpError, UniqueViolation } from '../domain/errors.ts';
import { hashPassword } from '../services/passwords.ts';
import type { Claims } from './oidcClient.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface SsoAccountRules {
  providerName: string;
  /** FOLIO_ADMIN_EMAIL: always an administrator. */
  adminEmail?: string;
  adminGroup?: OidcConfig['adminGroup'];
  groupsClaim: OidcConfig['groupsClaim'];
}

/** A group claim as providers send it: a list of names, or one name. */
function groupsOf(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.filter((g): g is string => typeof g === 'string');
  return typeof claim === 'string' ? [claim] : [];
}

export class SsoAccounts {
  constructor(
    private readonly repos: Pick<Repos, 'users'>,
    private readonly rules: SsoAccountRules,
  ) {}

  /** The verified email of the claims, or a 403 saying what the provider left out. */
  private emailOf(claims: Claims): string {
    const { providerName } = this.rules;
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    if (!EMAIL.test(email)) {
      throw new HttpError(
        403,
        `${providerName} did not tell Folio your email address (the email claim), and Folio knows its users by email. An administrator should let ${providerName} release the email to Folio (the "email" scope).`,
      );
    }
    const verified = claims.email_verified;
    if (verified !== undefined && verified !== true && verified !== 'true') {
      throw new HttpError(403, `${providerName} says your email address ${email} is not verified. Verify it at ${providerName}, then sign in again.`);
    }
    return email;
  }

  /** What the account's administration should be after this sign-in; undefined leaves it as it is. */
  private adminAfter(email: string, claims: Claims): boolean | undefined {
    const { adminEmail, adminGroup, groupsClaim } = this.rules;
    if (adminEmail && adminEmail.trim().toLowerCase() === email.toLowerCase()) return true;
    if (adminGroup) return groupsOf(claims[groupsClaim]).includes(adminGroup);
    return undefined;
  }

  /** The account of the person the claims describe, made on their first sign-in. */
  async accountFor(claims: Claims): Promise<UserRow> {
    const email = this.emailOf(claims);
    const admin = this.adminAfter(email, claims);
    let user = await this.repos.users.findByEmail(email);
    if (!user) {
      const name = [claims.name, claims.preferred_username].find((n): n is string => typeof n === 'string' && n.trim() !== '') ?? '';
      const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
      try {
        return await this.repos.users.create({ email, passwordHash, name: name.trim().slice(0, 255), isAdmin: admin ?? false });
      } catch (err) {
        // The same person's first sign-in in two tabs at once: the other made the account.
        if (!(err instanceof UniqueViolation)) throw err;
        user = await this.repos.users.findByEmail(email);
        if (!user) throw err;
      }
    }
    if (admin !== undefined && admin !== user.is_admin) {
      await this.repos.users.setAdmin(user.id, admin);
      user = { ...user, is_admin: admin };
    }
    return user;
  }
}
