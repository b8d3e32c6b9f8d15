// The team server's blob store: blobs as objects of an S3-compatible bucket (AWS S3, MinIO, Ceph, s3rver),
// named by their SHA-256 as on disk, so every process on every machine that shares the bucket sees the
// same files. Keeps the BlobStore contract (blobStore.ts): an object appears under its key only once a
// PutObject of all its bytes has completed (S3 publishes a put whole or not at all), a put of bytes already
// there is skipped (HeadObject first), and reads stream from the bucket. Callers that need a file path get
// a copy in a bounded local cache (blobCache.ts); uploads arrive in a local temporary folder as on disk.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { blobMissing, checkBlobKey, emptyTempDir, tempFileIn, type BlobStore, type ByteRange, type StoredBlob } from './blobStore.ts';
import { BlobCache } from './blobCache.ts';

export interface S3BlobStoreOptions {
  /** The S3 API's address (http://127.0.0.1:9000 for MinIO, https://s3.eu-central-1.amazonaws.com for AWS). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A local folder: `tmp/` for uploads on their way in, `cache/` for the local copies pathOf hands out. */
  localDir: string;
  /** The bound on the local cache's size in bytes. */
  cacheBytes: number;
  /** Keys per ListObjectsV2 page (S3's most is 1000; tests use fewer to cross pages). */
  listPageSize?: number;
  /**
   * keys() leaves out objects younger than this (default 24 hours): the bucket is shared, and another
   * process may have stored a blob whose row it has not committed yet (a long OCR stores page images
   * as it goes). The start-up sweep removes such a blob at a later start, if no row names it by then.
   */
  sweepGraceMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether an SDK error says the key (or bucket) is not there. */
function notFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

export class S3BlobStore implements BlobStore {
  readonly tmpDir: string;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly cache: BlobCache;
  private readonly listPageSize: number;
  private readonly sweepGraceMs: number;

  constructor(opts: S3BlobStoreOptions) {
    this.bucket = opts.bucket;
    this.listPageSize = opts.listPageSize ?? 1000;
    this.sweepGraceMs = opts.sweepGraceMs ?? DAY_MS;
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      // Bucket in the path (http://host/bucket/key): what MinIO, s3rver and other self-hosted stores
      // answer without wildcard DNS; AWS answers it too.
      forcePathStyle: true,
      // Checksums only where S3 requires them: the SDK's default trailing checksums (aws-chunked bodies)
      // are not understood by every S3-compatible store. Uploads carry Content-MD5 instead (below).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.tmpDir = path.join(opts.localDir, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    this.cache = new BlobCache(path.join(opts.localDir, 'cache'), opts.cacheBytes);
  }

  tempPath(suffix = ''): string {
    return tempFileIn(this.tmpDir, suffix);
  }

  /** Uploads a local file under its SHA-256 (unless that object exists), then removes the file. */
  async adopt(file: string): Promise<StoredBlob> {
    const sha = createHash('sha256');
    const md5 = createHash('md5');
    let size = 0;
    for await (const chunk of fs.createReadStream(file)) {
      sha.update(chunk);
      md5.update(chunk);
      size += (chunk as Buffer).length;
    }
    const key = sha.digest('hex');
    await this.upload(key, size, md5.digest('base64'), () => fs.createReadStream(file));
    await fsp.rm(file, { force: true });
    return { key, size };
  }

  async put(data: Buffer): Promise<StoredBlob> {
    const key = createHash('sha256').update(data).digest('hex');
    await this.upload(key, data.length, createHash('md5').update(data).digest('base64'), () => data);
    return { key, size: data.length };
  }

  /**
   * One PutObject of all the bytes: S3 makes the object visible only when it has them all, and refuses
   * them when they do not match their Content-MD5, so no key ever names partial or damaged bytes.
   */
  private async upload(key: string, size: number, md5: string, body: () => Buffer | Readable): Promise<void> {
    if (await this.exists(key)) return;
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body(), ContentLength: size, ContentMD5: md5 }));
  }

  async read(key: string): Promise<Buffer> {
    const body = await this.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async pathOf(key: string): Promise<string> {
    checkBlobKey(key);
    return this.cache.file(key, this.tempPath('.cache'), async (file) => {
      await pipeline(await this.get(key), fs.createWriteStream(file, { mode: 0o600 }));
    });
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  async size(key: string): Promise<number | null> {
    checkBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  stream(key: string, range?: ByteRange): Promise<Readable> {
    return this.get(key, range);
  }

  /** GetObject's body as a Node stream; a missing key rejects with ENOENT (the contract's error). */
  private async get(key: string, range?: ByteRange): Promise<Readable> {
    checkBlobKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      return res.Body as Readable;
    } catch (err) {
      if (notFound(err)) throw blobMissing(key, err);
      throw err;
    }
  }

  /** DeleteObject succeeds for a key that is not there, as the contract asks. */
  async remove(key: string): Promise<void> {
    checkBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    await this.cache.drop(key);
  }

  /** The bucket's blob keys older than the sweep's grace period, page by page (ListObjectsV2 pagination). */
  async keys(): Promise<string[]> {
    const storedBefore = Date.now() - this.sweepGraceMs;
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token, MaxKeys: this.listPageSize }));
      for (const o of page.Contents ?? []) {
        if (o.Key && /^[0-9a-f]{64}$/.test(o.Key) && (o.LastModified?.getTime() ?? 0) <= storedBefore) out.push(o.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  clearTemp(): Promise<void> {
    return emptyTempDir(this.tmpDir);
  }

  /** The local cache's size in bytes (for tests and diagnostics). */
  cacheSize(): Promise<number> {
    return this.cache.size();
  }
}
