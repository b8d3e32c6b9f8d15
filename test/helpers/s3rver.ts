// A throwaway S3-compatible server for tests: s3rver (test/helpers/s3rverProcess.cjs) in a child process on
// a free loopback port, its objects in a temporary folder, one empty bucket made at start. `env` holds the
// FOLIO_S3_* settings that point Folio at it, and `client` lets a test look into the bucket behind Folio's
// back. Used by test/blobs and the team server's multi-process tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The server process (benchmarks count its CPU time). */
  pid: number;
  /** FOLIO_S3_ENDPOINT, _BUCKET, _REGION, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY for this server. */
  env: Record<string, string>;
  client: S3Client;
  /** Every object name in the bucket, sorted. */
  objects(): Promise<string[]>;
  /** Removes every object (a fresh bucket for the next test). */
  empty(): Promise<void>;
  stop(): Promise<void>;
}

// s3rver knows one account, whose key pair is S3RVER/S3RVER; it checks every request's signature with it.
const KEY = 'S3RVER';
const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3rverProcess.cjs');

export async function startS3rver(bucket = 'folio-test'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', SERVER, dir, bucket], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
    readline.createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  child.removeAllListeners('exit');
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId: KEY, secretAccessKey: KEY } });
  const objects = async () => {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      out.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  };
  return {
    endpoint,
    bucket,
    pid: child.pid!,
    env: { FOLIO_S3_ENDPOINT: endpoint, FOLIO_S3_BUCKET: bucket, FOLIO_S3_REGION: region, FOLIO_S3_ACCESS_KEY_ID: KEY, FOLIO_S3_SECRET_ACCESS_KEY: KEY },
    client,
    objects,
    async empty() {
      for (const key of await objects()) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async stop() {
      client.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
