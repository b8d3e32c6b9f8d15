// A cap on what a PDF's Flate streams decompress to, checked at upload. A few kilobytes of deflate can
// inflate to gigabytes (a "zip bomb" in a PDF), and pdf.js inflates a stream whole when it draws it, so
// the check inflates each one first, counting and discarding the output (constant memory, on libuv's
// thread pool), and stops at the first stream over the limit.
import zlib from 'node:zlib';

const STREAM = Buffer.from('stream');
const END = Buffer.from('endstream');
/** How far back from `stream` its dictionary may start (a stream's dictionary is short). */
const DICT_WINDOW = 4096;

/** The byte ranges of the streams whose dictionary names FlateDecode (as a filter or among several). */
export function* flateStreams(pdf: Buffer): Generator<[number, number]> {
  let at = 0;
  for (;;) {
    const keyword = pdf.indexOf(STREAM, at);
    if (keyword < 0) return;
    at = keyword + STREAM.length;
    // "endstream" contains "stream": skip it, and "stream" inside a word.
    if (keyword >= 3 && pdf.toString('latin1', keyword - 3, keyword) === 'end') continue;
    let start = at;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] !== 0x0a) continue;
    start++;
    const dict = pdf.toString('latin1', Math.max(0, keyword - DICT_WINDOW), keyword);
    const open = dict.lastIndexOf(' obj');
    if (!/\/(FlateDecode|Fl)\b/.test(open >= 0 ? dict.slice(open) : dict)) continue;
    const end = pdf.indexOf(END, start);
    if (end < 0) return;
    yield [start, end];
    at = end + END.length;
  }
}

/** Inflates `data`, counting the output; resolves early with a count above `limit` once it passes it. A
 * damaged stream counts what it gave before the damage (pdf.js reads that much too). */
export function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    let total = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(total);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        finish();
        inflate.destroy();
      }
    });
    inflate.on('end', finish);
    inflate.on('error', finish);
    inflate.on('close', finish);
    inflate.end(data);
  });
}

/** The first Flate stream of `pdf` that inflates to more than `limit` bytes: its size so far, else undefined. */
export async function oversizedStream(pdf: Buffer, limit: number): Promise<number | undefined> {
  for (const [start, end] of flateStreams(pdf)) {
    const size = await inflatedSize(pdf.subarray(start, end), limit);
    if (size > limit) return size;
  }
  return undefined;
}
