// The Host check against DNS rebinding: a web page on any site can make its own name resolve to
// 127.0.0.1, after which the browser sends that page's requests (with the site's name as Host) to this
// API and lets the page read the answers. Answering only to the names Folio is really reached by
// (loopback, the address it listens on, the names the administrator lists) closes that door.
import type { RequestHandler } from 'express';
import { ConfigError, type Config } from '../config.ts';
import { HttpError } from '../domain/errors.ts';

/**
 * The host name of a Host header or a configured entry, without its port, in the WHATWG URL form
 * (lower case, IPv6 in brackets and compressed): the form a browser sends. Undefined when it is not a host.
 */
export function hostNameOf(host: string): string | undefined {
  const h = host.trim();
  if (!h || /[/?#@\\\s]/.test(h)) return undefined;
  // A bare IPv6 address in a setting ("fd00::5") has no brackets; in a Host header it always has.
  const bracketed = h.includes(':') && !h.startsWith('[') && h.indexOf(':') !== h.lastIndexOf(':') ? `[${h}]` : h;
  try {
    const u = new URL(`http://${bracketed}/`);
    return u.hostname || undefined;
  } catch {
    return undefined;
  }
}

/** localhost, 127.0.0.0/8 and [::1]: names that always mean this machine, never something DNS answers. */
export function isLoopbackHostName(name: string): boolean {
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

const WILDCARDS = new Set(['0.0.0.0', '[::]']);

/** The names besides loopback this server answers to: FOLIO_ALLOWED_HOSTS, and FOLIO_HOST when it is one address. */
export function allowedHostNames(config: Pick<Config, 'host' | 'allowedHosts'>): Set<string> {
  const names = new Set<string>();
  for (const entry of config.allowedHosts) {
    const name = hostNameOf(entry);
    if (!name) throw new ConfigError(`FOLIO_ALLOWED_HOSTS: "${entry}" is not a host name or address (list names and addresses separated by commas, e.g. folio.example.org,10.0.0.5).`);
    names.add(name);
  }
  const listening = hostNameOf(config.host);
  if (listening && !WILDCARDS.has(listening)) names.add(listening);
  return names;
}

/** Refuses requests whose Host is not loopback or an allowed name, before anything else reads them. */
export function hostCheck(config: Pick<Config, 'host' | 'allowedHosts'>): RequestHandler {
  const allowed = allowedHostNames(config);
  return (req, _res, next) => {
    const header = req.headers.host;
    const name = header === undefined ? undefined : hostNameOf(header);
    if (name && (isLoopbackHostName(name) || allowed.has(name))) return next();
    const shown = header === undefined ? 'no Host header' : `Host "${header.slice(0, 200)}"`;
    next(
      new HttpError(
        403,
        `Folio refused a request for ${shown}: it answers only to localhost, 127.0.0.1 and [::1]` +
          `${allowed.size ? ` and ${[...allowed].join(', ')}` : ''}. To reach it by another name or address, ` +
          'add that name to the FOLIO_ALLOWED_HOSTS setting (comma-separated, e.g. FOLIO_ALLOWED_HOSTS=folio.example.org,10.0.0.5) and restart Folio.',
      ),
    );
  };
}
