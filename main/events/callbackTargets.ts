// Where completion callbacks may go. A callback_url is chosen by whoever uploads, and Folio POSTs the
// document to it: without limits that is a way to make Folio send requests into places the uploader
// cannot reach (cloud metadata services that hand out credentials, the admin interfaces of the local
// network). So:
// - link-local addresses and the cloud metadata services (by address and by name) are always refused;
// - loopback and private addresses are allowed while Folio listens on loopback only (then the uploader
//   is someone on this machine, and the receiver is their local script), or when FOLIO_CALLBACK_ALLOW
//   lists the address's network or the URL's host name;
// - every other address is public and allowed.
// A name is judged by what it resolves to, every address of it, at connect time: guardedLookup is the
// lookup of the very connection, so a name cannot resolve to a public address for the check and to a
// private one for the connection (DNS rebinding).
import dns from 'node:dns';
import net from 'node:net';
import { ConfigError } from '../config.ts';

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'not unicast';

/** Cloud metadata services: AWS, GCP, Azure, OCI, DigitalOcean (169.254.169.254), ECS tasks, AWS over IPv6, Alibaba. */
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200'];
/** Names of metadata services, refused before they are even resolved. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.internal']);

/** IPv4 rules apply to IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) too: BlockList checks them as IPv4. */
function blockList(subnets: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const s of subnets) {
    const [address, prefix] = s.split('/');
    const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

const METADATA = blockList([
  ...METADATA_ADDRESSES,
  // The same services through a NAT64 gateway (64:ff9b::/96 carries an IPv4 address in its last 32 bits).
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::6464:64c8',
]);
const LINK_LOCAL = blockList(['169.254.0.0/16', 'fe80::/10', '64:ff9b::a9fe:0/112']);
const NOT_UNICAST = blockList(['224.0.0.0/4', '240.0.0.0/4', 'ff00::/8']);
// 0.0.0.0 and :: connect to this machine; ::/96 holds the deprecated IPv4-compatible forms.
const LOOPBACK = blockList(['127.0.0.0/8', '0.0.0.0/8', '::/96']);
const PRIVATE = blockList([
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  // Carrier-grade NAT space: inside a provider's network, never the public internet.
  '100.64.0.0/10',
  'fc00::/7',
  'fec0::/10',
  // NAT64 reaches IPv4 addresses Folio cannot see through it: judged as private as a whole.
  '64:ff9b::/96',
  '64:ff9b:1::/48',
]);

const familyOf = (address: string) => (net.isIPv6(address) ? 'ipv6' : 'ipv4');

/** What kind of address `address` (an IP literal, without brackets) is. */
export function addressKind(address: string): AddressKind {
  const type = familyOf(address);
  if (METADATA.check(address, type)) return 'metadata';
  if (LINK_LOCAL.check(address, type)) return 'link-local';
  if (NOT_UNICAST.check(address, type)) return 'not unicast';
  if (address === '::1' || LOOPBACK.check(address, type)) return 'loopback';
  if (PRIVATE.check(address, type)) return 'private';
  return 'public';
}

export interface CallbackPolicy {
  /** Loopback and private addresses are allowed: Folio listens on loopback, its users are on this machine. */
  localReceivers: boolean;
  /** FOLIO_CALLBACK_ALLOW: networks and addresses allowed although private. */
  allowedNetworks: net.BlockList;
  /** FOLIO_CALLBACK_ALLOW: host names whose private addresses are allowed. */
  allowedNames: Set<string>;
}

const normalName = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');
const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/** The policy of a Folio: `allow` are FOLIO_CALLBACK_ALLOW's entries (networks, addresses, host names). */
export function callbackPolicy(opts: { listensOnLoopback: boolean; allow?: string[] }): CallbackPolicy {
  const allowedNetworks = new net.BlockList();
  const allowedNames = new Set<string>();
  for (const raw of opts.allow ?? []) {
    // An IPv6 network may be written with brackets, with or without its prefix: [fd00::]/8.
    const entry = raw.trim().replace(/^\[([^\]]*)\]/, '$1');
    const [address, prefix, ...more] = entry.split('/');
    const type = net.isIP(address);
    if (type) {
      const bits = prefix === undefined ? undefined : Number(prefix);
      if (more.length || (bits !== undefined && (!/^\d+$/.test(prefix) || bits > (type === 4 ? 32 : 128)))) {
        throw new ConfigError(`FOLIO_CALLBACK_ALLOW: "${raw}" is not a network (write it as 10.0.0.0/8 or fd00::/8).`);
      }
      if (bits === undefined) allowedNetworks.addAddress(address, type === 4 ? 'ipv4' : 'ipv6');
      else allowedNetworks.addSubnet(address, bits, type === 4 ? 'ipv4' : 'ipv6');
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)) {
      allowedNames.add(normalName(entry));
    } else {
      throw new ConfigError(`FOLIO_CALLBACK_ALLOW: "${raw}" is neither a network, an address nor a host name (e.g. FOLIO_CALLBACK_ALLOW=10.0.0.0/8,hooks.internal).`);
    }
  }
  return { localReceivers: opts.listensOnLoopback, allowedNetworks, allowedNames };
}

const WHY: Record<Exclude<AddressKind, 'public'>, string> = {
  metadata: 'a cloud metadata service',
  'link-local': 'a link-local address',
  'not unicast': 'a multicast or reserved address',
  loopback: 'a loopback address',
  private: 'a private address',
};

/** Why `host` at `address` may not receive callbacks, or null when it may. `host` is the URL's host name. */
export function addressRefusal(host: string, address: string, policy: CallbackPolicy): string | null {
  const kind = addressKind(address);
  if (kind === 'public') return null;
  const name = normalName(unbracket(host));
  const target = name === address ? address : `${name} (${address})`;
  if (kind === 'metadata' || kind === 'link-local' || kind === 'not unicast') {
    return `Callbacks to ${target} are refused: it is ${WHY[kind]}, which no setting allows.`;
  }
  if (policy.localReceivers || policy.allowedNames.has(name) || policy.allowedNetworks.check(address, familyOf(address))) return null;
  return (
    `Callbacks to ${target} are refused: it is ${WHY[kind]}, and Folio listens beyond loopback. ` +
    `To allow it, list its network or host name in FOLIO_CALLBACK_ALLOW (e.g. FOLIO_CALLBACK_ALLOW=10.0.0.0/8,hooks.internal).`
  );
}

/**
 * What can be judged from the URL alone (an address literal, a metadata name, localhost): why it is
 * refused, or null when it is allowed or depends on what the name resolves to.
 */
export function urlRefusal(url: URL, policy: CallbackPolicy): string | null {
  const host = normalName(unbracket(url.hostname));
  if (METADATA_NAMES.has(host)) return `Callbacks to ${host} are refused: it is a cloud metadata service, which no setting allows.`;
  if (net.isIP(host)) return addressRefusal(host, host, policy);
  // localhost and its subdomains are this machine whatever DNS says (browsers and resolvers agree).
  if (host === 'localhost' || host.endsWith('.localhost')) return addressRefusal(host, '127.0.0.1', policy);
  return null;
}

/** A refusal of a callback target: final, never retried. */
export class CallbackRefusedError extends Error {
  readonly code = 'CALLBACK_REFUSED';
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the connection to a callback receiver: resolves the name, refuses the connection when
 * any of its addresses is refused (a name with one private address among public ones is not a public
 * receiver), and hands node the checked addresses, the only ones it then connects to.
 */
export function guardedLookup(policy: CallbackPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    const name = normalName(hostname);
    const early = urlRefusal(new URL(`http://${net.isIPv6(name) ? `[${name}]` : name}/`), policy);
    if (early) return callback(new CallbackRefusedError(early), '');
    resolve(name).then(
      (found) => {
        if (!found.length) return callback(Object.assign(new Error(`${name} has no address.`), { code: 'ENOTFOUND' }), '');
        for (const a of found) {
          const why = addressRefusal(name, a.address, policy);
          if (why) return callback(new CallbackRefusedError(why), '');
        }
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (!wanted.length) return callback(Object.assign(new Error(`${name} has no IPv${options.family} address.`), { code: 'ENOTFOUND' }), '');
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
