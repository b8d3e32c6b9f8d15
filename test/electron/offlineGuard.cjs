// Loaded into `folio serve` and each of its worker threads by NODE_OPTIONS=--require (offline.test.ts):
// a connection or name lookup to anything but this machine's loopback throws, and every such attempt is
// written to FOLIO_NET_LOG (JSON lines), with a line per thread that the guard is in place.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const { threadId } = require('node:worker_threads');

const LOG = process.env.FOLIO_NET_LOG;
const record = (entry) => fs.appendFileSync(LOG, `${JSON.stringify({ pid: process.pid, threadId, ...entry })}\n`);

function isLoopback(host) {
  // Node connects to localhost when no host is given.
  if (host === undefined || host === null || host === '') return true;
  const h = String(host).toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || h.startsWith('127.') || h.startsWith('::ffff:127.');
}

function refuse(what, entry) {
  record(entry);
  const err = new Error(`offline guard: ${what} refused (only loopback is allowed)`);
  err.code = 'EFOLIOOFFLINE';
  throw err;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect and tls.connect hand over their normalized arguments as one array.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  let host;
  let port;
  let pipe = false;
  if (first !== null && typeof first === 'object') {
    host = first.host;
    port = first.port;
    pipe = typeof first.path === 'string';
  } else if (typeof first === 'number' || /^\d+$/.test(String(first))) {
    port = first;
    host = typeof args[1] === 'string' ? args[1] : undefined;
  } else {
    pipe = typeof first === 'string';
  }
  // Unix sockets and named pipes stay on this machine.
  if (!pipe && !isLoopback(host)) refuse(`connection to ${host}:${port}`, { kind: 'connect', host, port });
  return connect.apply(this, args);
};

const guardLookup = (original, kind) =>
  function guardedLookup(hostname, ...rest) {
    if (!isLoopback(hostname) && net.isIP(String(hostname)) === 0) refuse(`name lookup of ${hostname}`, { kind, hostname });
    return original.call(this, hostname, ...rest);
  };
dns.lookup = guardLookup(dns.lookup, 'dns');
dns.promises.lookup = guardLookup(dns.promises.lookup, 'dns');
for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  dns[name] = guardLookup(dns[name], 'dns');
  dns.promises[name] = guardLookup(dns.promises[name], 'dns');
}

record({ kind: 'installed' });
