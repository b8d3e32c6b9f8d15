// Accounts: creation (API, CLI, first-run admin), listing and removal, and the single sign-on identities
// an administrator links to an account by hand (`folio user sso-link`, README "Single sign-on").
import { randomBytes } from 'node:crypto';
import type { Repos } from '../store/repositories/index.ts';
import type { SsoIdentityRow, UserRow } from '../store/schema.ts';
import { hashPassword } from './passwords.ts';
import { NotFoundError, UniqueViolation, ValidationError } from '../domain/errors.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class UserService {
  constructor(private readonly repos: Repos) {}

  async create(email: string, password: string, opts: { name?: string; isAdmin?: boolean } = {}): Promise<UserRow> {
    const errors: Record<string, string[]> = {};
    if (!EMAIL.test(email.trim())) errors.email = [`"${email}" is not a valid email address.`];
    if (password.length < 8) errors.password = ['The password must have at least 8 characters.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    if (await this.repos.users.findByEmail(email)) throw ValidationError.of('email', `A user with the email ${email} already exists.`);
    return this.repos.users.create({ email, passwordHash: await hashPassword(password), name: opts.name, isAdmin: opts.isAdmin });
  }

  /**
   * On an empty database, creates the first (admin) account. Returns the credentials when a password
   * was generated, so that the caller can print them once.
   */
  async ensureAdmin(email?: string, password?: string): Promise<{ email: string; password: string; generated: boolean } | undefined> {
    if ((await this.repos.users.count()) > 0) return undefined;
    const e = email ?? 'admin@folio.local';
    const generated = !password;
    const p = password ?? randomBytes(12).toString('base64url');
    await this.create(e, p, { isAdmin: true, name: 'Administrator' });
    return { email: e, password: p, generated };
  }

  list(): Promise<UserRow[]> {
    return this.repos.users.list();
  }

  async byEmail(email: string): Promise<UserRow> {
    const user = await this.repos.users.findByEmail(email);
    if (!user) throw new NotFoundError(`No user with the email ${email}.`);
    return user;
  }

  async remove(email: string): Promise<void> {
    const user = await this.byEmail(email);
    await this.keepOwners(user);
    await this.repos.users.remove(user.id);
  }

  async removeById(id: number): Promise<void> {
    const user = await this.repos.users.findById(id);
    if (!user) throw new NotFoundError('User not found.');
    await this.keepOwners(user);
    if (!(await this.repos.users.remove(id))) throw new NotFoundError('User not found.');
  }

  /** A project keeps at least one owner: its only owner's account stays until another member is one. */
  private async keepOwners(user: UserRow): Promise<void> {
    const projects = await this.repos.projects.soleOwnerOf(user.id);
    if (!projects.length) return;
    const named = projects.slice(0, 5).map((p) => `${p.id} (${p.name})`).join(', ') + (projects.length > 5 ? `, and ${projects.length - 5} more` : '');
    throw ValidationError.of('user', `${user.email} is the only owner of project ${named}: make another member an owner first, or delete the project.`);
  }

  /** The single sign-on identities (issuer + subject) that sign in to the account of `email`. */
  async ssoIdentities(email: string): Promise<SsoIdentityRow[]> {
    return this.repos.users.ssoIdentitiesOf((await this.byEmail(email)).id);
  }

  /**
   * An administrator's say: the identity `subject` at `issuer` signs in to the account of `email` from now
   * on, whatever email the provider sends or verifies (for providers that never send email_verified).
   */
  async linkSso(email: string, issuer: string, subject: string): Promise<void> {
    const user = await this.byEmail(email);
    if (!issuer.trim() || !subject.trim()) throw ValidationError.of('identity', 'Name the identity by its issuer URL and its subject (the sub claim).');
    const linked = await this.repos.users.findBySsoIdentity(issuer, subject);
    if (linked) {
      if (linked.user.id === user.id) return;
      throw ValidationError.of('identity', `The identity ${subject} at ${issuer} signs in to ${linked.user.email}: unlink it there first (folio user sso-unlink).`);
    }
    try {
      await this.repos.users.linkSsoIdentity({ userId: user.id, issuer, subject, email: null, vouched: true });
    } catch (err) {
      if (err instanceof UniqueViolation) throw ValidationError.of('identity', `The identity ${subject} at ${issuer} was linked meanwhile; run the command again.`);
      throw err;
    }
  }

  /** Ends an identity's link to the account of `email`: its next sign-in is a first one again. */
  async unlinkSso(email: string, issuer: string, subject: string): Promise<void> {
    const user = await this.byEmail(email);
    if (!(await this.repos.users.unlinkSsoIdentity(user.id, issuer, subject))) {
      throw new NotFoundError(`The identity ${subject} at ${issuer} does not sign in to ${user.email}.`);
    }
  }

  async setPassword(email: string, password: string): Promise<void> {
    if (password.length < 8) throw ValidationError.of('password', 'The password must have at least 8 characters.');
    const user = await this.byEmail(email);
    await this.repos.users.setPassword(user.id, await hashPassword(password));
  }
}
