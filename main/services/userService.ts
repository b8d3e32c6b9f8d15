// Accounts: creation (API, CLI, first-run admin), listing and removal.
import { randomBytes } from 'node:crypto';
import type { Repos } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import { hashPassword } from './passwords.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';

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

  async setPassword(email: string, password: string): Promise<void> {
    if (password.length < 8) throw ValidationError.of('password', 'The password must have at least 8 characters.');
    const user = await this.byEmail(email);
    await this.repos.users.setPassword(user.id, await hashPassword(password));
  }
}
