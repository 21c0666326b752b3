import net from 'node:net';
import dns from 'node:dns/promises';
import {
  allowsAddress,
  allowsHost,
  hasAllowedAddresses,
  isPublicAddress,
  namesAddress,
  normalizeHost,
  type AllowList,
} from './address-policy';
import { FetchProblem } from './fetch-problem';

/** Resolves a host name to its addresses (tests inject one; the default asks the system). */
export type Resolver = (host: string) => Promise<string[]>;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A URL that passed every rule, with the only addresses the connection may go to. */
export interface Target {
  url: URL;
  secure: boolean;
  /** the host as the URL names it, without brackets: what TLS and the Host header are about */
  host: string;
  port: number;
  addresses: ResolvedAddress[];
}

const STANDARD_PORTS = new Set([80, 443]);

const systemResolve: Resolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Applies the rules to one URL (the first one or a redirect's): web schemes only, no credentials,
 * and every address the name resolves to reachable on the URL's port: a public address on the
 * standard ports only, an allowed one (LINK_CHECK_ALLOW) on the ports its entry opens. A name with
 * one good and one bad address is refused: the connection could pick either.
 */
export async function vetTarget(input: string | URL, allow: AllowList, resolve: Resolver | undefined, signal: AbortSignal): Promise<Target> {
  const url = typeof input === 'string' ? URL.parse(input.trim()) : input;
  if (!url) throw new FetchProblem('bad_url', 'The address could not be read as a web address.');
  const shown = url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchProblem('bad_url', `Only web pages (http:// or https://) can be checked, not "${url.protocol}" addresses.`, { url: shown });
  }
  if (url.username || url.password) {
    throw new FetchProblem('bad_url', 'The address contains a user name or password, which Byline does not send.', { url: shown });
  }
  const secure = url.protocol === 'https:';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  const literal = net.isIP(host) !== 0;
  const hostAllowed = allowsHost(allow, host, port);
  const portProblem = () =>
    new FetchProblem('blocked_port', `The address uses port ${port}; Byline only visits web pages on the standard ports (80 and 443).`, { url: shown });

  // decided before any lookup when the answer cannot depend on the addresses
  const standardPort = STANDARD_PORTS.has(port);
  if (!standardPort && !hostAllowed && (literal || !hasAllowedAddresses(allow, port))) throw portProblem();

  const found = literal ? [host] : await lookup(normalizeHost(host), resolve ?? systemResolve, signal, shown);
  const addresses: ResolvedAddress[] = [];
  let wrongPort = false;
  for (const address of found) {
    const family = net.isIP(address);
    if (family === 0 || !(hostAllowed || allowsAddress(allow, address, port))) {
      if (!isPublicAddress(address) && (standardPort || !namesAddress(allow, address))) {
        const where = literal ? `${address} is` : `${host} leads to ${address}, which is`;
        throw new FetchProblem('blocked_address', `${where} a private or reserved network address that Byline does not visit.`, { url: shown });
      }
      // public, or allowed on other ports: a public address is visited on the standard ports only,
      // even when another address of the name is allowed on this one
      if (!standardPort) wrongPort = true;
    }
    addresses.push({ address, family: family as 4 | 6 });
  }
  if (wrongPort) throw portProblem();
  return { url, secure, host, port, addresses };
}

async function lookup(host: string, resolve: Resolver, signal: AbortSignal, shown: string): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await abortable(resolve(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new FetchProblem('unreachable', `The site ${host} could not be found (its name does not resolve).`, { url: shown });
  }
  if (addresses.length === 0) throw new FetchProblem('unreachable', `The site ${host} could not be found (its name has no addresses).`, { url: shown });
  return addresses;
}

/** Settles with the promise, or rejects as soon as the signal aborts (a DNS lookup cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
