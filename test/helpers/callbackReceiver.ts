// A real HTTP receiver for completion callbacks on a random loopback port: it records every request
// and answers from a script (one answer per request, the last one repeating).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  method: string;
  /** Path and query exactly as they arrived on the wire. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (for time-outs); the socket is closed when the receiver closes. */
  hang?: boolean;
}

export type Responder = (req: ReceivedCallback, index: number) => Answer;

export interface CallbackReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedCallback[];
  close(): Promise<void>;
}

export async function startReceiver(script: Answer[] | Responder): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const respond: Responder = typeof script === 'function' ? script : (_req, i) => script[Math.min(i, script.length - 1)];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedCallback = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const answer = respond(r, received.length);
      received.push(r);
      if (answer.hang) return;
      res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...(answer.headers ?? {}) });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
