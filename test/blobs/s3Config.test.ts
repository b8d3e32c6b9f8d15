// The object store's settings (FOLIO_S3_*): all five or none, each checked at start-up with an error that
// names what is missing or wrong, and the factory's choice between the disk and the bucket.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../main/config.ts';
import { openBlobStore } from '../../main/blobs/openBlobStore.ts';
import { DiskBlobStore } from '../../main/blobs/blobStore.ts';
import { S3BlobStore } from '../../main/blobs/s3BlobStore.ts';
import { tempDir } from '../helpers/testServer.ts';

const ALL = {
  FOLIO_S3_ENDPOINT: 'http://127.0.0.1:9000',
  FOLIO_S3_BUCKET: 'folio-blobs',
  FOLIO_S3_REGION: 'us-east-1',
  FOLIO_S3_ACCESS_KEY_ID: 'folio',
  FOLIO_S3_SECRET_ACCESS_KEY: 'secret-key',
};

const refusal = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('loadConfig accepted the settings');
};

describe('FOLIO_S3_* settings', () => {
  it('are none by default: blobs stay in the data folder', () => {
    expect(loadConfig({}).s3).toBeUndefined();
  });

  it('are read all five, with a cache of 1024 MB unless FOLIO_S3_CACHE_MB says otherwise', () => {
    expect(loadConfig(ALL).s3).toEqual({ endpoint: 'http://127.0.0.1:9000', bucket: 'folio-blobs', region: 'us-east-1', accessKeyId: 'folio', secretAccessKey: 'secret-key', cacheBytes: 1024 * 1024 * 1024 });
    expect(loadConfig({ ...ALL, FOLIO_S3_CACHE_MB: '64' }).s3?.cacheBytes).toBe(64 * 1024 * 1024);
  });

  it('name the ones missing when only some are set', () => {
    expect(refusal({ FOLIO_S3_BUCKET: 'folio-blobs' })).toBe(
      'Object storage needs all five FOLIO_S3_* settings: FOLIO_S3_BUCKET is set but FOLIO_S3_ENDPOINT, FOLIO_S3_REGION, FOLIO_S3_ACCESS_KEY_ID, FOLIO_S3_SECRET_ACCESS_KEY are not',
    );
    const { FOLIO_S3_SECRET_ACCESS_KEY: _, ...fourSet } = ALL;
    expect(refusal({ ...fourSet, FOLIO_S3_SECRET_ACCESS_KEY: '  ' })).toMatch(/are set but FOLIO_S3_SECRET_ACCESS_KEY is not$/);
  });

  it('refuse an endpoint that is not an http(s) URL and a bucket S3 would not name', () => {
    expect(refusal({ ...ALL, FOLIO_S3_ENDPOINT: '127.0.0.1:9000' })).toBe('FOLIO_S3_ENDPOINT must be an http(s) URL, got "127.0.0.1:9000"');
    expect(refusal({ ...ALL, FOLIO_S3_BUCKET: 'Folio_Blobs' })).toMatch(/^FOLIO_S3_BUCKET must be a bucket name/);
    expect(refusal({ ...ALL, FOLIO_S3_CACHE_MB: '-1' })).toBe('FOLIO_S3_CACHE_MB must be a positive number of megabytes, got "-1"');
  });
});

describe('openBlobStore', () => {
  it('opens the disk store under <data>/blobs without S3 settings, and the bucket with them', async () => {
    const dataDir = tempDir();
    const disk = await openBlobStore(loadConfig({}, { dataDir }));
    expect(disk).toBeInstanceOf(DiskBlobStore);
    expect((disk as DiskBlobStore).root).toBe(path.join(dataDir, 'blobs'));
    const s3 = await openBlobStore(loadConfig(ALL, { dataDir }));
    expect(s3).toBeInstanceOf(S3BlobStore);
    expect((s3 as S3BlobStore).bucket).toBe('folio-blobs');
    expect(s3.tmpDir.startsWith(dataDir)).toBe(true);
  });
});
