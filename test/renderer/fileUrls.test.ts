// The web app's file URLs (renderer/src/api/httpTransport.ts, shared/signedFileUrls.ts): signed with the file
// key, never carrying the API token, in the browser and the desktop window alike; and the synchronous
// HMAC-SHA256 they are signed with agrees with Node's.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HttpTransport } from '../../renderer/src/api/httpTransport.ts';
import { IpcTransport } from '../../renderer/src/api/ipcTransport.ts';
import { fileSignature, hmacSha256, sha256, signFileUrl, splitSignedUrl } from '../../shared/signedFileUrls.ts';
import type { FolioBridge } from '../../shared/desktopBridge.ts';

const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const KEY = { id: '7.1900000000', key: 'k3y-from-the-server', expires_at: '2030-03-17T00:00:00.000Z' };

describe('file URLs', () => {
  it.each([
    ['/page/show-image/12/'],
    ['/doc/show/3/'],
    ['/api/v3/projects/2/export/documents.xlsx'],
    ['/aimodel/file/9/?download=1'],
  ])('%s is signed for itself and carries no token', (path) => {
    for (const url of [new HttpTransport(TOKEN, '', KEY).fileUrl(path), new IpcTransport({} as FolioBridge, TOKEN, KEY).fileUrl(path)]) {
      expect(url).not.toContain(TOKEN);
      expect(url).not.toContain(KEY.key);
      expect(url).not.toMatch(/token=/);
      expect(url).toBe(signFileUrl(path, KEY));
      expect(splitSignedUrl(url)).toEqual({ path, keyId: KEY.id, signature: fileSignature(KEY.key, path) });
    }
  });

  it('is bare without a key (it then answers 401), never a ?token= URL', () => {
    expect(new HttpTransport(TOKEN).fileUrl('/doc/show/3/')).toBe('/doc/show/3/');
  });
});

describe('HMAC-SHA256', () => {
  it("agrees with Node's for lengths around the block boundaries and long keys", () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const data = randomBytes(n);
      const key = randomBytes((n * 7) % 150);
      expect(Buffer.from(sha256(data)).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
      expect(Buffer.from(hmacSha256(key, data)).toString('hex')).toBe(createHmac('sha256', key).update(data).digest('hex'));
    }
    expect(fileSignature('key', '/doc/show/1/')).toBe(createHmac('sha256', 'key').update('/doc/show/1/').digest('base64url'));
  });
});
