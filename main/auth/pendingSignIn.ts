// What a sign-in through the OpenID Connect provider must remember between leaving Folio and coming back:
// the state, the nonce, the PKCE verifier and the callback address. It travels in a cookie of the browser
// that started it (no server memory, so any API process sharing the instance secret can finish it),
// sealed with an HMAC of the instance secret so that nobody can hand Folio a state of their own, and
// valid for ten minutes.
import { createHmac, timingSafeEqual } from 'node:crypto';

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

/** A key of its own, derived from the instance secret, so that a sealed state is never an API token's HMAC. */
const keyOf = (secret: Buffer) => createHmac('sha256', secret).update('folio oidc pending sign-in').digest();

const mac = (secret: Buffer, payload: string) => createHmac('sha256', keyOf(secret)).update(payload).digest();

export function sealPendingSignIn(secret: Buffer, pending: PendingSignIn): string {
  const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The pending sign-in a cookie holds; undefined when there is none, it was altered or it expired. */
export function openPendingSignIn(secret: Buffer, sealed: string | undefined, now = Date.now()): PendingSignIn | undefined {
  if (!sealed) return undefined;
  const [payload, signature, extra] = sealed.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let pending: PendingSignIn;
  try {
    pending = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PendingSignIn;
  } catch {
    return undefined;
  }
  if (typeof pending?.expires !== 'number' || pending.expires < now) return undefined;
  return pending;
}
