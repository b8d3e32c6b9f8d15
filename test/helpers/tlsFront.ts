// An HTTPS front for a test server, as a TLS-terminating reverse proxy stands before Folio in a deployment:
// a self-signed certificate for 127.0.0.1 made with openssl, every request passed on to the plain-HTTP
// server unchanged but for its Host. Clients that behave differently over https (the hosted service's SDK
// raises on refusals only through its https adapter) are tested as their users run them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tempDir } from './testServer.ts';

export interface TlsFront {
  /** https://127.0.0.1:<port> */
  url: string;
  /** The certificate in PEM, for the client's trust store (REQUESTS_CA_BUNDLE for Python's requests). */
  caFile: string;
  close(): Promise<void>;
}

export async function startTlsFront(target: string): Promise<TlsFront> {
  const dir = tempDir('folio-tls-');
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const upstream = new URL(target);
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (e) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `The TLS front could not reach ${target}: ${e.message}` }));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caFile: cert,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
