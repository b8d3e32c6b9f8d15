// A TCP proxy on a loopback port in front of a real server (the test PostgreSQL cluster), which a test can
// cut to stage an outage the way a network or a stopped database shows it to a client: `refuse` closes
// every connection and refuses new ones (ECONNREFUSED, as a stopped server), `hang` accepts connections
// and forwards nothing (a server that no longer answers), `restore` forwards again on the same port.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  refuse(): Promise<void>;
  hang(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let mode: 'forward' | 'hang' = 'forward';
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const onConnection = (client: net.Socket) => {
    track(client);
    if (mode === 'hang') return; // accepted, never answered
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server = net.createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async refuse() {
      const closed = stopListening();
      dropAll();
      await closed;
    },
    hang() {
      mode = 'hang';
      dropAll();
    },
    async restore() {
      // Connections accepted while hanging were never forwarded: their clients must see them end.
      if (mode === 'hang') dropAll();
      mode = 'forward';
      if (!server.listening) {
        server = net.createServer(onConnection);
        await listen(port);
      }
    },
    async close() {
      const closed = stopListening();
      dropAll();
      await closed;
    },
  };
}
