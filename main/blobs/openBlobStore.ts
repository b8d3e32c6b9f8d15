// Which blob store a Folio process uses: the configured S3-compatible bucket (FOLIO_S3_*, the team server,
// shared by every process on every machine), else the files under <data>/blobs (the desktop default).
import path from 'node:path';
import type { Config } from '../config.ts';
import { DiskBlobStore, type BlobStore } from './blobStore.ts';
import { S3BlobStore } from './s3BlobStore.ts';

export function openBlobStore(config: Pick<Config, 'dataDir' | 's3'>): BlobStore {
  if (!config.s3) return new DiskBlobStore(path.join(config.dataDir, 'blobs'));
  // Local to this machine: uploads on their way into the bucket, and copies of blobs read by path.
  return new S3BlobStore({ ...config.s3, localDir: path.join(config.dataDir, 's3') });
}
