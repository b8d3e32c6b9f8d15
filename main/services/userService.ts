// Accounts: creation (API, CLI, first-run admin), listing and removal, and the single sign-on identities
// an administrator links to an account by hand (`folio user sso-link`, README "Single sign-on").
import { randomBytes } from 'node:crypto';
import type { Repos, UnitOfWork } from '../store/repositories/index.ts';
import type { SsoIdentityRow, UserRow } from '../store/schema.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { NotFoundError, PermissionError, UniqueViolation, ValidationError } from '../domain/errors.ts';
import { isAdministrator } from './access.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class UserService {
  constructor(
    private readonly repos: Repos,
    private readonly uow?: UnitOfWork,
  ) {}

  private async userById(id: number): Promise<UserRow> {
    const user = await this.repos.users.findById(id);
    if (!user) throw new NotFoundError('User not found.');
    return user;
  }

  private async checkedHash(user: UserRow, password: string, field: string): Promise<string> {
    const problem = passwordProblem(password, user.email);
    if (problem) throw ValidationError.of(field, problem);
    if (await verifyPassword(password, user.password_hash)) throw ValidationError.of(field, 'The new password is the current one: choose another.');
    return hashPassword(password);
  }

  /**
   * The caller's own new password, once the route has checked the current one (AuthService.login, which
   * throttles guesses). The caller's API token is revoked with the old password: the route hands back a new
   * one, so the session that changed it goes on while any other holder of the old token (a script, someone who
   * had the old password) is signed out.
   */
  async changeOwnPassword(user: UserRow, newPassword: string): Promise<void> {
    const hash = await this.checkedHash(user, newPassword, 'new_password');
    await this.writeAndRevoke(user.id, hash);
  }

  /**
   * An administrator sets another account's password (the account's owner forgot it, or it leaked): every
   * session of that account ends, its API token (and so the signed file links made from it) is revoked and
   * remembered Basic credentials no longer match. Not for one's own account: that takes the current password.
   */
  async resetPassword(admin: UserRow, id: number, password: string): Promise<UserRow> {
    if (!isAdministrator(admin)) throw new PermissionError('Only an administrator can reset passwords.');
    const user = await this.userById(id);
    if (user.id === admin.id) {
      throw ValidationError.of('password', 'This is your own account: change your password with POST /api/v3/auth/password/, which needs the current one.');
    }
    await this.writeAndRevoke(user.id, await this.checkedHash(user, password, 'password'));
    return this.userById(id);
  }

  private async writeAndRevoke(userId: number, hash: string): Promise<void> {
    const write = async (r: Repos) => {
      await r.users.setPassword(userId, hash);
      await r.users.deleteToken(userId);
    };
    await (this.uow ? this.uow(write) : write(this.repos));
  }

  /**
   * An administrator changes an account's name or role (is_admin). The last administrator stays one: a 400
   * rather than an instance nobody can administer (an administrator may step down while another remains).
   */
  async update(admin: UserRow, id: number, changes: { name?: string; is_admin?: boolean }): Promise<UserRow> {
    if (!isAdministrator(admin)) throw new PermissionError('Only an administrator can change accounts.');
    const user = await this.userById(id);
    const write = async (r: Repos) => {
      if (changes.name !== undefined) await r.users.setName(user.id, changes.name.trim());
      if (changes.is_admin === true && !user.is_admin) await r.users.setAdmin(user.id, true);
      if (changes.is_admin === false && user.is_admin && !(await r.users.demoteUnlessLast(user.id))) {
        throw ValidationError.of('is_admin', `${user.email} is the last administrator: make another account an administrator first.`);
      }
    };
    await (this.uow ? this.uow(write) : write(this.repos));
    return this.userById(id);
  }

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

  /** `folio user set-password`: the operator's reset, which ends the account's sessions like an administrator's. */
  async setPassword(email: string, password: string): Promise<void> {
    const user = await this.byEmail(email);
    const problem = passwordProblem(password, user.email);
    if (problem) throw ValidationError.of('password', problem);
    await this.writeAndRevoke(user.id, await hashPassword(password));
  }
}
