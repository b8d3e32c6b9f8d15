// What a sign-in through the OpenID Connect provider must remember between leaving Folio and coming back:
// the state, the nonce, the PKCE verifier and the callback address. It travels in a cookie of the browser
// that started it (no server memory, so any API process sharing the instance secret can finish it),
// sealed with AES-256-GCM under a key derived from the instance secret: nobody can read it (the PKCE
// verifier and the nonce stay Folio's, even for whoever sees the cookie), and nobody can hand Folio a state
// of their own (the GCM tag authenticates it). Valid for ten minutes.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export interface PendingSignIn {
  state: string;
  nonce: string;
  /** The PKCE code verifier (the provider got its S256 challenge). */
  verifier: string;
  /** The redirect_uri of the authorization request: the token request must name the same. */
  redirectUri: string;
  /** Epoch milliseconds after which the sign-in must start again. */
  expires: number;
}

/** How long a user may take at the provider's pages. */
export const PENDING_SIGN_IN_MS = 10 * 60_000;

/** The sealed form's version: `v2.<iv>.<ciphertext>.<tag>`, each base64url (v1 was signed only, and is refused). */
const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bound into the tag, so that a ciphertext made for another purpose under the same key never opens here. */
const AAD = Buffer.from('folio oidc pending sign-in');

/** A key of its own, derived from the instance secret, so that it is never an API token's HMAC key. */
const keyOf = (secret: Buffer) => createHmac('sha256', secret).update('folio oidc pending sign-in aes-256-gcm').digest();

export function sealPendingSignIn(secret: Buffer, pending: PendingSignIn): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv, { authTagLength: TAG_BYTES }).setAAD(AAD);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(pending), 'utf8'), cipher.final()]);
  return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The pending sign-in a cookie holds; undefined when there is none, it was altered or sealed elsewhere, or it expired. */
export function openPendingSignIn(secret: Buffer, sealed: string | undefined, now = Date.now()): PendingSignIn | undefined {
  if (!sealed) return undefined;
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return undefined;
  const [iv, ciphertext, tag] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
  let pending: PendingSignIn;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), iv, { authTagLength: TAG_BYTES }).setAAD(AAD);
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    pending = JSON.parse(plain.toString('utf8')) as PendingSignIn;
  } catch {
    // A wrong tag (altered, or another secret's) or a payload that is not ours.
    return undefined;
  }
  if (typeof pending?.expires !== 'number' || pending.expires < now) return undefined;
  return pending;
}
