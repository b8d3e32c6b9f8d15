// Starts the HTTP API (and the renderer at /) on the configured address.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Core } from './core.ts';
import { createHttpApp } from './http/server.ts';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export class PortInUseError extends Error {}

export function startServer(core: Core): Promise<RunningServer> {
  const app = createHttpApp(core);
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(core.config.port, core.config.host);
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new PortInUseError(`Port ${core.config.port} on ${core.config.host} is already in use. Set FOLIO_PORT to a free port (0 picks one).`));
      } else reject(err);
    });
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      const host = core.config.host.includes(':') ? `[${core.config.host}]` : core.config.host;
      const url = `http://${host}:${port}`;
      core.lock?.describe({ url });
      core.setPublicUrl(url);
      // Keep-alive sockets of scripts must not hold a shutdown open.
      server.keepAliveTimeout = 5_000;
      resolve({
        url,
        port,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            server.closeAllConnections();
          }),
      });
    });
  });
}
