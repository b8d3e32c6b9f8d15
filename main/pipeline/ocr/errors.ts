// What every OCR engine and the pool share: the error a page fails with, and a time limit on a promise.

/** A page could not be read (engine failure, time-out, pool closed); the message says which. */
export class OcrError extends Error {}

export function deadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrError(`${message}.`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
