// Password hashing with scrypt (node:crypto), in the self-describing form `scrypt$N$r$p$salt$hash`.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1 };
const KEYLEN = 32;

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEYLEN, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The fewest characters a password may have (as on account creation). */
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

/**
 * Why `password` is too weak for the account of `email`, or null: at least 8 characters (NIST SP 800-63B's
 * floor; length counts, not character classes), at most 1024 (scrypt hashes it all), not the account's email
 * or its name part, not one character repeated. A new password also differs from the current one (the caller
 * checks that, it needs the hash).
 */
export function passwordProblem(password: string, email: string): string | null {
  const chars = Array.from(password);
  if (chars.length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (chars.length > MAX_PASSWORD_LENGTH) return `The password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  const p = password.trim().toLowerCase();
  const e = email.trim().toLowerCase();
  if (p === e || p === e.split('@')[0]) return 'The password must not be the account\'s email or its name part.';
  if (new Set(chars).size === 1) return 'The password must not be one character repeated.';
  return null;
}
