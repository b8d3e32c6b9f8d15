// Who is calling: Basic credentials, `Token` header, a signed file URL (shared/signedFileUrls.ts) or, from
// scripts, the older `?token=` query, and the token life cycle.
// A token is HMAC(instance secret, user id + per-token nonce): the database keeps only its SHA-256,
// yet POST /auth/ can hand back the same token until it is deleted (spec section 5). A file key is
// HMAC(instance secret, user id + token nonce + expiry): deleting the token voids the keys made from it.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fileSignature, splitSignedUrl, type FileKey } from '../../shared/signedFileUrls.ts';
import type { Repos } from '../store/repositories/index.ts';
import type { UserRow } from '../store/schema.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { AuthenticationError, PermissionError, TooManyRequestsError } from '../domain/errors.ts';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle, type LoginLimits } from './loginThrottle.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** How long a file key, and so every URL signed with it, stays valid. */
export const FILE_KEY_MINUTES = 15;

/** Verified Basic credentials are remembered briefly so that scripts using Basic auth don't pay scrypt per request. */
const BASIC_CACHE_MS = 60_000;

/**
 * What an unknown email's password is checked against: a hash made like every account's, so that a
 * login for an account that does not exist takes as long as a wrong password for one that does.
 * Made once per process, on first need.
 */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = (): Promise<string> => (dummyHash ??= hashPassword(randomBytes(18).toString('base64')));

export interface AuthOptions {
  limits?: LoginLimits;
  /** The password check (tests count its calls). */
  verify?: (password: string, stored: string) => Promise<boolean>;
  /**
   * Set when local passwords are off (FOLIO_LOCAL_LOGIN=off): the name of the single sign-on provider
   * people sign in through instead. Password logins (POST /auth/, Basic) then answer 403 saying so.
   */
  passwordsOffFor?: string;
}

export class AuthService {
  private basicCache = new Map<string, { userId: number; passwordHash: string; until: number }>();
  private readonly throttle: LoginThrottle;
  private readonly verify: (password: string, stored: string) => Promise<boolean>;
  private readonly passwordsOffFor: string | undefined;

  constructor(private readonly repos: Repos, private readonly secret: Buffer, opts: AuthOptions = {}) {
    this.throttle = new LoginThrottle(opts.limits ?? DEFAULT_LOGIN_LIMITS);
    this.verify = opts.verify ?? verifyPassword;
    this.passwordsOffFor = opts.passwordsOffFor;
  }

  /** Whether passwords sign in here (FOLIO_LOCAL_LOGIN). */
  get passwordLogins(): boolean {
    return this.passwordsOffFor === undefined;
  }

  private refusePasswordsWhenOff(): void {
    if (this.passwordsOffFor === undefined) return;
    throw new PermissionError(
      `Passwords do not sign in on this Folio (FOLIO_LOCAL_LOGIN=off): sign in with ${this.passwordsOffFor} on Folio's sign-in page, and give scripts the API token shown in Settings (Authorization: Token <token>).`,
    );
  }

  private tokenFor(userId: number, nonce: string): string {
    return createHmac('sha256', this.secret).update(`${userId}:${nonce}`).digest('hex').slice(0, 40);
  }

  /** Checks email and password; undefined when either is wrong, after the same work either way. */
  async checkCredentials(email: string, password: string): Promise<UserRow | undefined> {
    const user = await this.repos.users.findByEmail(email);
    if (!user) {
      await this.verify(password, await dummyPasswordHash());
      return undefined;
    }
    return (await this.verify(password, user.password_hash)) ? user : undefined;
  }

  /**
   * A login by password (POST /auth/, Basic): refused with 429 while the account or the address is over
   * its limit of failures, without checking the password; otherwise checked and counted.
   * `address`: the client's IP address (undefined over the desktop window's IPC).
   */
  async login(email: string, password: string, address: string | undefined): Promise<UserRow | undefined> {
    this.refusePasswordsWhenOff();
    const wait = this.throttle.retryAfterSeconds(email, address);
    if (wait > 0) {
      throw new TooManyRequestsError(
        wait,
        `Too many failed logins for this account or from this address. Try again in ${wait < 90 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`}, or use an API token.`,
      );
    }
    const user = await this.checkCredentials(email, password);
    if (user) this.throttle.recordSuccess(email);
    else this.throttle.recordFailure(email, address);
    return user;
  }

  /** The user's token, made on first call and the same on every later call until deleted. */
  async issueToken(user: UserRow): Promise<string> {
    const existing = await this.repos.users.findTokenByUser(user.id);
    if (existing) return this.tokenFor(user.id, existing.nonce);
    const nonce = randomBytes(16).toString('hex');
    const token = this.tokenFor(user.id, nonce);
    await this.repos.users.insertToken(user.id, nonce, sha256(token));
    return token;
  }

  /** A key the web app signs file URLs with, valid FILE_KEY_MINUTES (shared/signedFileUrls.ts). */
  async fileKey(user: UserRow, now = Date.now()): Promise<FileKey> {
    await this.issueToken(user);
    const nonce = (await this.repos.users.findTokenByUser(user.id))!.nonce;
    const expires = Math.floor(now / 1000) + FILE_KEY_MINUTES * 60;
    return { id: `${user.id}.${expires}`, key: this.fileKeyFor(user.id, nonce, expires), expires_at: new Date(expires * 1000).toISOString() };
  }

  private fileKeyFor(userId: number, nonce: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`file-key:${userId}:${nonce}:${expires}`).digest('base64url');
  }

  /** The user a signed file URL (`url`: path and query as requested) was made for; a 401 when it is forged, for another
   * file, made with a deleted token, or expired. */
  async userForSignedUrl(url: string, now = Date.now()): Promise<UserRow> {
    const signed = splitSignedUrl(url)!;
    const [userId, expires] = signed.keyId.split('.').map(Number);
    const invalid = () => new AuthenticationError('The signed link is invalid or has expired; reload the page to get a new one.');
    if (expires * 1000 <= now || expires * 1000 > now + (FILE_KEY_MINUTES + 1) * 60_000) throw invalid();
    const row = await this.repos.users.findTokenByUser(userId);
    if (!row) throw invalid();
    const expected = Buffer.from(fileSignature(this.fileKeyFor(userId, row.nonce, expires), signed.path));
    const given = Buffer.from(signed.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    const user = await this.repos.users.findById(userId);
    if (!user) throw invalid();
    return user;
  }

  deleteToken(user: UserRow): Promise<boolean> {
    return this.repos.users.deleteToken(user.id);
  }

  async userForToken(token: string): Promise<UserRow> {
    const user = await this.repos.users.userByTokenHash(sha256(token.trim()));
    if (!user) throw new AuthenticationError('Invalid token.');
    return user;
  }

  async userForBasic(encoded: string, address?: string): Promise<UserRow> {
    this.refusePasswordsWhenOff();
    let decoded: string;
    try {
      decoded = Buffer.from(encoded.trim(), 'base64').toString('utf8');
    } catch {
      throw new AuthenticationError('Invalid basic header. Credentials not correctly base64 encoded.');
    }
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new AuthenticationError('Invalid basic header. Credentials not correctly base64 encoded.');
    const email = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const key = sha256(decoded);
    const cached = this.basicCache.get(key);
    // The throttle comes first, also for remembered credentials: a 200 during a lock-out would tell a
    // guesser that this guess is right.
    if (cached && cached.until > Date.now() && this.throttle.retryAfterSeconds(email, address) === 0) {
      const user = await this.repos.users.findById(cached.userId);
      // A changed password or a removed user invalidates the remembered check.
      if (user && user.password_hash === cached.passwordHash) return user;
    }
    const user = await this.login(email, password, address);
    if (!user) throw new AuthenticationError('Invalid username/password.');
    if (this.basicCache.size > 1000) this.basicCache.clear();
    this.basicCache.set(key, { userId: user.id, passwordHash: user.password_hash, until: Date.now() + BASIC_CACHE_MS });
    return user;
  }

  /**
   * Resolves the caller from an Authorization header (Basic, Token or Bearer) or, on GET requests,
   * the `token` query parameter. Undefined when no credentials were sent at all.
   */
  /** `url`: the request's path and query, for a signed file URL (GET and HEAD only, like `?token=`). */
  async authenticate(header: string | undefined, queryToken: string | undefined, method: string, address?: string, url?: string): Promise<UserRow | undefined> {
    if (header) {
      const [scheme, ...rest] = header.trim().split(/\s+/);
      const value = rest.join(' ');
      const s = scheme.toLowerCase();
      if (!value) throw new AuthenticationError('Invalid authorization header. No credentials provided.');
      if (s === 'basic') return this.userForBasic(value, address);
      if (s === 'token' || s === 'bearer') return this.userForToken(value);
      throw new AuthenticationError(`Unsupported authorization scheme "${scheme}". Use Basic or Token.`);
    }
    const readOnly = method === 'GET' || method === 'HEAD';
    if (url !== undefined && readOnly && splitSignedUrl(url)) return this.userForSignedUrl(url);
    if (queryToken !== undefined && readOnly) return this.userForToken(queryToken);
    return undefined;
  }
}
