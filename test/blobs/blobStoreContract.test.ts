// The BlobStore contract (main/blobs/blobStore.ts), one suite run against every store: DiskBlobStore in a
// temporary folder and S3BlobStore on a real s3rver on loopback. Then what only the S3 store has: the
// upload skipped when the key is there, and the bounded local cache behind pathOf.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DiskBlobStore, type BlobStore } from '../../main/blobs/blobStore.ts';
import { S3BlobStore } from '../../main/blobs/s3BlobStore.ts';
import { startS3rver, type TestS3 } from '../helpers/s3rver.ts';
import { tempDir } from '../helpers/testServer.ts';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3rver('folio-contract');
});
afterAll(async () => {
  await s3?.stop();
});

function s3Store(localDir = tempDir('folio-s3-local-'), cacheBytes = 1024 * 1024): S3BlobStore {
  // Two keys a page, so that keys() crosses pages with a handful of blobs.
  return new S3BlobStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: s3.env.FOLIO_S3_ACCESS_KEY_ID!,
    secretAccessKey: s3.env.FOLIO_S3_SECRET_ACCESS_KEY!,
    localDir,
    cacheBytes,
    listPageSize: 2,
    // The contract's keys() is every key; the grace of a shared bucket has its own test below.
    sweepGraceMs: -60_000,
  });
}

const STORES: { name: string; open: () => Promise<BlobStore> }[] = [
  { name: 'DiskBlobStore', open: async () => new DiskBlobStore(path.join(tempDir(), 'blobs')) },
  {
    name: 'S3BlobStore',
    open: async () => {
      await s3.empty();
      return s3Store();
    },
  },
];

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const MISSING = sha256('never stored');

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function code(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
  throw new Error('expected a rejection');
}

describe.each(STORES)('the BlobStore contract: $name', ({ open }) => {
  let store: BlobStore;
  beforeEach(async () => {
    store = await open();
  });

  it('stores bytes under their SHA-256 and gives them back by read, stream, a range, size and pathOf', async () => {
    const data = Buffer.from('0123456789 content-addressed bytes');
    const blob = await store.put(data);
    expect(blob).toEqual({ key: sha256(data), size: data.length });
    expect(await store.read(blob.key)).toEqual(data);
    expect(await store.exists(blob.key)).toBe(true);
    expect(await store.size(blob.key)).toBe(data.length);
    expect(await bytesOf(await store.stream(blob.key))).toEqual(data);
    expect((await bytesOf(await store.stream(blob.key, { start: 2, end: 5 }))).toString()).toBe('2345');
    expect(fs.readFileSync(await store.pathOf(blob.key))).toEqual(data);
    expect(await store.keys()).toEqual([blob.key]);
  });

  it('is idempotent: the same bytes put twice or adopted are one blob, and the adopted file goes', async () => {
    const data = Buffer.from('the same bytes, three times');
    const a = await store.put(data);
    const b = await store.put(data);
    const file = store.tempPath('.upload');
    fs.writeFileSync(file, data);
    const c = await store.adopt(file);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(fs.existsSync(file)).toBe(false);
    expect(await store.keys()).toEqual([a.key]);
  });

  it('adopts a local file: its bytes under their key, the file taken away', async () => {
    const data = Buffer.alloc(300_000, 7);
    const file = store.tempPath('.upload');
    fs.writeFileSync(file, data);
    const blob = await store.adopt(file);
    expect(blob).toEqual({ key: sha256(data), size: data.length });
    expect(fs.existsSync(file)).toBe(false);
    expect(await store.read(blob.key)).toEqual(data);
  });

  it('answers a key that is not stored: exists false, size null, reads reject with ENOENT, remove succeeds', async () => {
    expect(await store.exists(MISSING)).toBe(false);
    expect(await store.size(MISSING)).toBeNull();
    expect(await code(store.read(MISSING))).toBe('ENOENT');
    expect(await code(store.stream(MISSING))).toBe('ENOENT');
    expect(await code(store.pathOf(MISSING))).toBe('ENOENT');
    await store.remove(MISSING);
  });

  it('removes a blob: gone from exists, read and keys, the others stay', async () => {
    const a = await store.put(Buffer.from('to remove'));
    const b = await store.put(Buffer.from('to keep'));
    await store.remove(a.key);
    await store.remove(a.key);
    expect(await store.exists(a.key)).toBe(false);
    expect(await code(store.read(a.key))).toBe('ENOENT');
    expect(await store.keys()).toEqual([b.key]);
  });

  it('refuses anything but a key of 64 hex digits', async () => {
    for (const bad of ['../secret.key', 'ABC', sha256('x').toUpperCase()]) {
      expect(await code(store.read(bad))).toMatch(/^Invalid blob key/);
      expect(await code(store.pathOf(bad))).toMatch(/^Invalid blob key/);
      expect(await code(store.exists(bad))).toMatch(/^Invalid blob key/);
      expect(await code(store.remove(bad))).toMatch(/^Invalid blob key/);
    }
  });

  it('lists every key, however many, and no temporary file', async () => {
    const keys = [];
    for (let i = 0; i < 5; i++) keys.push((await store.put(Buffer.from(`blob ${i}`))).key);
    fs.writeFileSync(store.tempPath('.upload'), 'an upload on its way in');
    expect((await store.keys()).sort()).toEqual(keys.sort());
  });

  it('clearTemp empties the temporary folder and keeps the blobs', async () => {
    const blob = await store.put(Buffer.from('kept'));
    const tmp = store.tempPath('.upload');
    expect(path.dirname(tmp)).toBe(store.tmpDir);
    fs.writeFileSync(tmp, 'left by a crash');
    await store.clearTemp();
    expect(fs.readdirSync(store.tmpDir)).toEqual([]);
    expect(await store.exists(blob.key)).toBe(true);
  });
});

describe('S3BlobStore', () => {
  beforeEach(async () => {
    await s3.empty();
  });

  it('uploads bytes once: a put of a key already in the bucket is a HeadObject only', async () => {
    const store = s3Store();
    const commands: string[] = [];
    store.client.middlewareStack.add((next, context) => (args) => (commands.push(context.commandName!), next(args)), { step: 'initialize' });
    const data = Buffer.from('uploaded once');
    await store.put(data);
    await store.put(data);
    expect(commands).toEqual(['HeadObjectCommand', 'PutObjectCommand', 'HeadObjectCommand']);
    expect(await s3.objects()).toEqual([sha256(data)]);
  });

  it('leaves the blobs of the last 24 hours out of keys(): another process may not have committed their rows yet', async () => {
    const store = new S3BlobStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', localDir: tempDir(), cacheBytes: 1 << 20 });
    const blob = await store.put(Buffer.from('stored a moment ago'));
    expect(await store.keys()).toEqual([]);
    const realNow = Date.now;
    Date.now = () => realNow() + 24 * 60 * 60 * 1000 + 1000;
    try {
      expect(await store.keys()).toEqual([blob.key]);
    } finally {
      Date.now = realNow;
    }
  });

  it('is shared: a blob put by one process is read by another with its own local folder', async () => {
    const blob = await s3Store().put(Buffer.from('from another machine'));
    expect((await s3Store().read(blob.key)).toString()).toBe('from another machine');
  });

  it('keeps its local cache within its bound, dropping the least recently used copy first', async () => {
    const localDir = tempDir('folio-s3-local-');
    const store = s3Store(localDir, 250_000);
    const blobs = [];
    for (let i = 0; i < 3; i++) blobs.push(await store.put(Buffer.alloc(100_000, i)));
    const cached = () => fs.readdirSync(path.join(localDir, 'cache')).sort();
    // Copies handed out within the last minute are safe from eviction: wind the clock on between reads.
    const realNow = Date.now;
    let clock = realNow();
    Date.now = () => clock;
    try {
      await store.pathOf(blobs[0]!.key);
      clock += 61_000;
      await store.pathOf(blobs[1]!.key);
      clock += 61_000;
      await store.pathOf(blobs[0]!.key); // used again: now the most recent
      clock += 61_000;
      const third = await store.pathOf(blobs[2]!.key);
      expect(cached()).toEqual([blobs[0]!.key, blobs[2]!.key].sort());
      expect(await store.cacheSize()).toBe(200_000);
      expect(fs.readFileSync(third)).toEqual(Buffer.alloc(100_000, 2));
      // An evicted copy is fetched again when asked for.
      clock += 61_000;
      expect(fs.readFileSync(await store.pathOf(blobs[1]!.key))).toEqual(Buffer.alloc(100_000, 1));
    } finally {
      Date.now = realNow;
    }
    expect(await store.cacheSize()).toBeLessThanOrEqual(250_000);
    // Removing a blob drops its local copy too.
    await store.remove(blobs[1]!.key);
    expect(cached()).not.toContain(blobs[1]!.key);
  });
});
