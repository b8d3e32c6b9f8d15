// Short-lived signed URLs for the files the web app loads where it cannot send an Authorization header
// (<img>, pdf.js, download links): `path?…&fk=<user>.<expiry>&sig=<HMAC-SHA256(file key, path)>`. The server
// hands out the file key (POST /api/v3/auth/file-key/, main/services/authService.ts), derived from its secret,
// the user, their token and the expiry; the app signs each path with it, synchronously, so one URL opens one
// file and only until the key expires (minutes). A URL in a log is no token: it opens nothing else. Shared by
// the renderer (signing) and the server (checking), so both sign exactly the same bytes.

/** A file key as the server hands it out: `id` (`<user id>.<expiry, Unix seconds>`) goes into each URL, `key` never. */
export interface FileKey {
  id: string;
  key: string;
  expires_at: string;
}

/** The query parameters a signed URL ends with, in this order. */
export const FILE_KEY_PARAM = 'fk';
export const SIGNATURE_PARAM = 'sig';

/** `path` (with its own query, if any) signed with `key`. */
export function signFileUrl(path: string, key: Pick<FileKey, 'id' | 'key'>): string {
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}${FILE_KEY_PARAM}=${key.id}&${SIGNATURE_PARAM}=${fileSignature(key.key, path)}`;
}

/** The path a signed URL signs, its key id and its signature; undefined for a URL that is not signed. */
export function splitSignedUrl(url: string): { path: string; keyId: string; signature: string } | undefined {
  const m = new RegExp(`^(.*)[?&]${FILE_KEY_PARAM}=([0-9]+\\.[0-9]+)&${SIGNATURE_PARAM}=([A-Za-z0-9_-]+)$`).exec(url);
  return m ? { path: m[1], keyId: m[2], signature: m[3] } : undefined;
}

/** base64url(HMAC-SHA256(key, path)). */
export function fileSignature(key: string, path: string): string {
  return base64url(hmacSha256(utf8(key), utf8(path)));
}

// ---- HMAC-SHA256 (FIPS 180-4, RFC 2104), synchronous: the browser's WebCrypto only answers asynchronously,
// and a URL is built while rendering.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i] + v) >>> 0));
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((v, i) => outView.setUint32(i * 4, v));
  return out;
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const pad = (byte: number) => block.map((b) => b ^ byte);
  const inner = sha256(concat(pad(0x36), message));
  return sha256(concat(pad(0x5c), inner));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
