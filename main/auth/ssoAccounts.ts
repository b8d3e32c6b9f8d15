// Which Folio account a person signed in by the OpenID Connect provider is. OpenID Connect Core 5.7: a
// person is the ID token's issuer and subject (`iss` + `sub`), never an email, which a provider may let
// anyone claim. The rules:
// - an identity that signed in before reaches the account it reached then, whatever email it sends now
//   (the account keeps its email);
// - a new identity needs an email claim (Folio knows its users by email); email_verified false refuses it;
// - a new identity whose email is an existing account's joins that account only when Folio trusts the
//   email (FOLIO_OIDC_TRUST_EMAILS, config.ts: by default only one the provider marks email_verified), and
//   never an account that a sign-in made from an email nobody vouched for (so nobody can make an account
//   under someone else's address and wait for its owner to join it); else a 403 says what to do;
// - a new identity whose email is free makes an account, with a random password nobody knows (set one with
//   `folio user password` to let it sign in locally too), its name from the name (or preferred_username) claim;
// - administrators: FOLIO_ADMIN_EMAIL's account is one when it signs in with that email trusted (the first
//   administrator of an install whose local passwords are off); with FOLIO_OIDC_ADMIN_GROUP set, every
//   sign-in makes the account an administrator when the group claim lists that group and takes
//   administration away when it does not, so the provider's groups decide; without it, sign-ins leave
//   administration as it is.
import { randomBytes } from 'node:crypto';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import type { OidcConfig } from '../config.ts';
import { HttpError, UniqueViolation } from '../domain/errors.ts';
import { hashPassword } from '../services/passwords.ts';
import type { Claims } from './oidcClient.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface SsoAccountRules {
  providerName: string;
  /** FOLIO_ADMIN_EMAIL: an administrator when signed in with that email trusted. */
  adminEmail?: string;
  adminGroup?: OidcConfig['adminGroup'];
  groupsClaim: OidcConfig['groupsClaim'];
  trustEmails: OidcConfig['trustEmails'];
}

/** A group claim as providers send it: a list of names, or one name. */
function groupsOf(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.filter((g): g is string => typeof g === 'string');
  return typeof claim === 'string' ? [claim] : [];
}

/** email_verified as providers send it: a boolean, or (some) its text; undefined when not sent. */
function verifiedClaim(claims: Claims): boolean | undefined {
  const v = claims.email_verified;
  if (v === true || v === 'true') return true;
  if (v === undefined || v === null) return undefined;
  return false;
}

const sameEmail = (a: string | undefined, b: string) => !!a && a.trim().toLowerCase() === b.trim().toLowerCase();

/** What a sign-in says about who it is. */
interface SignIn {
  issuer: string;
  subject: string;
  /** The email claim, '' when none or not an address. */
  email: string;
  /** Whether Folio trusts that email (FOLIO_OIDC_TRUST_EMAILS). */
  trusted: boolean;
  claims: Claims;
}

export class SsoAccounts {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rules: SsoAccountRules,
  ) {}

  private signInOf(claims: Claims): SignIn {
    const { iss, sub } = claims;
    if (typeof iss !== 'string' || !iss || typeof sub !== 'string' || !sub) {
      throw new HttpError(403, `${this.rules.providerName} did not say who signed in (the iss and sub claims). An administrator should check the provider.`);
    }
    const email = typeof claims.email === 'string' && EMAIL.test(claims.email.trim()) ? claims.email.trim() : '';
    const verified = verifiedClaim(claims);
    const { trustEmails } = this.rules;
    const trusted = email !== '' && (verified === true ? trustEmails !== 'none' : verified === undefined && trustEmails === 'all');
    return { issuer: iss, subject: sub, email, trusted, claims };
  }

  /** The email a new identity needs, or a 403 saying what the provider left out or did not verify. */
  private emailForNewIdentity(s: SignIn): string {
    const { providerName } = this.rules;
    if (!s.email) {
      throw new HttpError(
        403,
        `${providerName} did not tell Folio your email address (the email claim), and Folio knows its users by email. An administrator should let ${providerName} release the email to Folio (the "email" scope).`,
      );
    }
    if (verifiedClaim(s.claims) === false) {
      throw new HttpError(403, `${providerName} says your email address ${s.email} is not verified. Verify it at ${providerName}, then sign in again.`);
    }
    return s.email;
  }

  /** Refuses (403) to join a new identity to the existing account of its email, unless the rules allow it. */
  private async mayJoin(repos: Repos, account: UserRow, s: SignIn): Promise<void> {
    const { providerName, trustEmails } = this.rules;
    const exists = `Folio already has an account for ${s.email}, and this is the first sign-in of your ${providerName} identity.`;
    if (trustEmails === 'none') {
      throw new HttpError(403, `${exists} This Folio never joins a sign-in to an existing account by its email (FOLIO_OIDC_TRUST_EMAILS=none): ask an administrator.`);
    }
    if (!s.trusted) {
      throw new HttpError(
        403,
        `${exists} ${providerName} does not say that this address is verified (email_verified), so Folio does not sign you in to that account. Verify the address at ${providerName} and sign in again, or ask an administrator (FOLIO_OIDC_TRUST_EMAILS).`,
      );
    }
    // Made by an identity whose email nobody vouched for (the squatter's account): no one joins it by email.
    const identities = await repos.users.ssoIdentitiesOf(account.id);
    if (identities.length > 0 && !identities.some((i) => i.vouched)) {
      throw new HttpError(403, `${exists} That account was made by a sign-in whose address nobody verified, so Folio does not join others to it: ask an administrator.`);
    }
  }

  /** What the account's administration should be after this sign-in; undefined leaves it as it is. */
  private adminAfter(user: UserRow, s: SignIn): boolean | undefined {
    const { adminEmail, adminGroup, groupsClaim } = this.rules;
    if (adminEmail && s.trusted && sameEmail(adminEmail, s.email) && sameEmail(adminEmail, user.email)) return true;
    if (adminGroup) return groupsOf(s.claims[groupsClaim]).includes(adminGroup);
    return undefined;
  }

  /** The account of the identity, joined or made in one transaction; a UniqueViolation when a concurrent sign-in made it. */
  private async findOrMake(s: SignIn, passwordHash: () => Promise<string>): Promise<UserRow> {
    const hash = await passwordHash(); // outside the transaction: scrypt takes a while
    return this.uow(async (repos) => {
      const known = await repos.users.findBySsoIdentity(s.issuer, s.subject);
      if (known) return known.user;
      const email = this.emailForNewIdentity(s);
      const identity = { issuer: s.issuer, subject: s.subject, email, vouched: s.trusted };
      const existing = await repos.users.findByEmail(email);
      if (existing) {
        await this.mayJoin(repos, existing, s);
        await repos.users.linkSsoIdentity({ ...identity, userId: existing.id });
        return existing;
      }
      const name = [s.claims.name, s.claims.preferred_username].find((n): n is string => typeof n === 'string' && n.trim() !== '') ?? '';
      const user = await repos.users.create({ email, passwordHash: hash, name: name.trim().slice(0, 255), isAdmin: false });
      await repos.users.linkSsoIdentity({ ...identity, userId: user.id });
      return user;
    });
  }

  /** The account of the person the claims describe, made on their first sign-in. */
  async accountFor(claims: Claims): Promise<UserRow> {
    const s = this.signInOf(claims);
    let user = await this.uow(async (repos) => {
      const known = await repos.users.findBySsoIdentity(s.issuer, s.subject);
      if (known) await repos.users.touchSsoIdentity(known.identity.id, s.email || null);
      return known?.user;
    });
    if (!user) {
      const passwordHash = () => hashPassword(randomBytes(24).toString('base64url'));
      try {
        user = await this.findOrMake(s, passwordHash);
      } catch (err) {
        // The same person's first sign-in in two tabs at once: the other one made the account (or joined it).
        if (!(err instanceof UniqueViolation)) throw err;
        user = await this.findOrMake(s, passwordHash);
      }
    }
    const admin = this.adminAfter(user, s);
    if (admin === undefined || admin === user.is_admin) return user;
    const id = user.id;
    await this.uow((repos) => repos.users.setAdmin(id, admin));
    return { ...user, is_admin: admin };
  }
}
