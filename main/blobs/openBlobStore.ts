// Which blob store a Folio process uses: the configured S3-compatible bucket (FOLIO_S3_*, the team server,
// shared by every process on every machine), else the files under <data>/blobs (the desktop default).
import path from 'node:path';
import type { Config } from '../config.ts';
import { DiskBlobStore, type BlobStore } from './blobStore.ts';

export async function openBlobStore(config: Pick<Config, 'dataDir' | 's3'>): Promise<BlobStore> {
  if (!config.s3) return new DiskBlobStore(path.join(config.dataDir, 'blobs'));
  // Loaded only here: the AWS SDK costs about half a second of every start that does not use it.
  const { S3BlobStore } = await import('./s3BlobStore.ts');
  // Local to this machine: uploads on their way into the bucket, and copies of blobs read by path.
  return new S3BlobStore({ ...config.s3, localDir: path.join(config.dataDir, 's3') });
}
