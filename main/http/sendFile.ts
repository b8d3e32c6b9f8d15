// Sending a stored file from a route that `produces` one (documents, document sets, AI models).
import path from 'node:path';
import { RESPONDED, type Ctx } from './route.ts';

/** Sends a stored file under its document's name, typed by that name's extension. */
export function sendFile(ctx: Ctx<unknown>, file: { path: string; name: string }): Promise<typeof RESPONDED> {
  ctx.res.type(path.extname(file.name) || 'application/octet-stream');
  return new Promise((resolve, reject) => ctx.res.download(file.path, file.name, (err) => (err ? reject(err) : resolve(RESPONDED))));
}
