// Sending a stored blob from a route that `produces` one (documents, document sets, AI models, page
// images): streamed from the blob store, on disk or in an S3 bucket, with no local copy. A blob's bytes
// never change under its key, so the key is a strong ETag (If-None-Match answers 304), and a single byte
// range (Range: bytes=a-b, bytes=a-, bytes=-n) answers 206 for resumed downloads and viewers that seek.
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ByteRange } from '../blobs/blobStore.ts';
import { NotFoundError } from '../domain/errors.ts';
import { RESPONDED, type Ctx } from './route.ts';
import { logProblem } from '../log.ts';

export interface BlobToSend {
  key: string;
  /** A download's file name (Content-Disposition: attachment, type from its extension); none: shown inline. */
  name?: string;
  /** The content type when there is no name. */
  type?: string;
}

/**
 * The range a Range header asks for within `size` bytes: undefined for the whole blob (no header, or one
 * this server does not serve partly: several ranges, other units, a malformed or reversed range, which
 * RFC 9110 lets a server answer with the whole), 'unsatisfiable' when it starts past the end.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (last < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

export async function sendBlob(ctx: Ctx<unknown>, blob: BlobToSend): Promise<typeof RESPONDED> {
  const { req, res } = ctx;
  const store = ctx.core.blobs;
  const size = await store.size(blob.key);
  if (size === null) throw missing();
  const etag = `"${blob.key}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'bytes');
  if (req.fresh) {
    res.status(304).end();
    return RESPONDED;
  }
  // If-Range: the part only while the client's copy is this blob; another ETag means the whole.
  const ifRange = req.get('If-Range');
  const range = ifRange && ifRange !== etag ? undefined : requestedRange(req.get('Range'), size);
  if (range === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${size}`);
    res.end();
    return RESPONDED;
  }
  // Opened before any other header: a blob removed meanwhile is a plain 404, not a cut download.
  const body = req.method === 'HEAD' ? undefined : await store.stream(blob.key, range).catch((err: NodeJS.ErrnoException) => {
    res.removeHeader('ETag');
    throw err.code === 'ENOENT' ? missing() : err;
  });
  if (blob.name) {
    res.attachment(blob.name);
    res.type(path.extname(blob.name) || 'application/octet-stream');
  } else res.type(blob.type ?? 'application/octet-stream');
  if (range) {
    res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    res.setHeader('Content-Length', range.end - range.start + 1);
  } else res.setHeader('Content-Length', size);
  if (!body) {
    res.end();
    return RESPONDED;
  }
  try {
    await pipeline(body, res);
  } catch (err) {
    // The client went away, or the store failed mid-stream: the status is sent, only the connection can tell.
    res.destroy();
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') logProblem(`[folio] sending blob ${blob.key} failed:`, err);
  }
  return RESPONDED;
}

const missing = () => new NotFoundError('The file is missing from the store.');
