import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which network addresses Byline may reach when it fetches a URL someone typed. Only globally
 * routable addresses, so that a live-article link can never make the server talk to itself, its
 * cloud's metadata service or the private network around it; LINK_CHECK_ALLOW opens exceptions
 * (tests, an outlet on a company network), each on the standard web ports unless it names its own.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Ports from..to, both included. */
type PortSpan = readonly [from: number, to: number];

/** What an entry without a port opens: the standard web ports, as for public addresses. */
const WEB_PORTS: readonly PortSpan[] = [
  [80, 80],
  [443, 443],
];

/**
 * LINK_CHECK_ALLOW parsed: names, single addresses and CIDR ranges, each with the ports it opens
 * (80 and 443 for a bare entry, else exactly the port or span it names).
 */
export interface AllowList {
  readonly hosts: readonly { readonly name: string; readonly ports: readonly PortSpan[] }[];
  readonly ranges: readonly { readonly base: Address; readonly bits: number; readonly ports: readonly PortSpan[] }[];
}

/** The canonical spelling of a host name: lower case, no brackets, no final dot. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

const opens = (ports: readonly PortSpan[], port: number) => ports.some(([from, to]) => port >= from && port <= to);

/**
 * Parses LINK_CHECK_ALLOW: comma-separated host names, IP addresses or CIDR ranges, each optionally
 * with `:port` or `:from-to` (an IPv6 address or range in brackets: `[::1]:8080`). An entry that is
 * none of these throws, so that a typo is found when the server starts rather than silently
 * leaving the outlet blocked (or, worse, something else open).
 */
export function parseAllowList(setting: string | undefined): AllowList {
  const hosts: { name: string; ports: readonly PortSpan[] }[] = [];
  const ranges: { base: Address; bits: number; ports: readonly PortSpan[] }[] = [];
  for (const raw of (setting ?? '').split(',')) {
    const shown = raw.trim();
    if (!shown) continue;
    const bad = (what: string) => new Error(`LINK_CHECK_ALLOW: "${shown}" ${what}`);
    const { place, ports, bracketed } = splitPort(shown.toLowerCase(), bad);
    const entry = place.endsWith('.') ? place.slice(0, -1) : place;
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry) || (bracketed && !entry.includes(':'))) throw bad('is not a valid CIDR range');
      const [base, bits] = ipaddr.parseCIDR(entry);
      ranges.push({ base, bits, ports });
    } else if (net.isIP(entry) && (!bracketed || net.isIPv6(entry))) {
      const base = ipaddr.parse(entry);
      ranges.push({ base, bits: base.kind() === 'ipv4' ? 32 : 128, ports });
    } else if (!bracketed && isHostName(entry)) {
      hosts.push({ name: entry, ports });
    } else {
      throw bad('is not a host name, an IP address or a CIDR range, with or without :port');
    }
  }
  return { hosts, ranges };
}

/**
 * An entry's place and ports: `[v6]` or `[v6]:port`, `place:port`, or a bare place (an IPv6
 * address or range without brackets has more than one colon, so it never carries a port).
 */
function splitPort(entry: string, bad: (what: string) => Error): { place: string; ports: readonly PortSpan[]; bracketed: boolean } {
  if (entry.startsWith('[')) {
    const m = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
    if (!m) throw bad('is not a host name, an IP address or a CIDR range, with or without :port');
    return { place: m[1], ports: m[2] === undefined ? WEB_PORTS : [portSpan(m[2], bad)], bracketed: true };
  }
  const colon = entry.indexOf(':');
  if (colon < 0 || colon !== entry.lastIndexOf(':')) return { place: entry, ports: WEB_PORTS, bracketed: false };
  return { place: entry.slice(0, colon), ports: [portSpan(entry.slice(colon + 1), bad)], bracketed: false };
}

/** `8080` or `1024-65535`: ports 1 to 65535, the first of a span not after the last. */
function portSpan(text: string, bad: (what: string) => Error): PortSpan {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text);
  const from = m ? Number(m[1]) : NaN;
  const to = m?.[2] !== undefined ? Number(m[2]) : from;
  if (!(from >= 1 && to <= 65535 && from <= to)) throw bad('has a port that is not a number from 1 to 65535 or a span such as 1024-65535');
  return [from, to];
}

function isHostName(value: string): boolean {
  return value.length <= 253 && value.split('.').every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label));
}

/** Parses a strictly written address (as DNS answers or a normalised URL carry it), else null. */
function parseStrict(ip: string): Address | null {
  if (!net.isIP(ip)) return null;
  try {
    return ipaddr.parse(ip);
  } catch {
    return null;
  }
}

/** An IPv6 address that stands for an IPv4 one is judged, and allowed, as that IPv4 address. */
function unwrap(address: Address): Address {
  return address.kind() === 'ipv6' ? (embeddedIPv4(address as ipaddr.IPv6) ?? address) : address;
}

/** The entries of the allow list that name this address (exactly or by one of their ranges). */
function rangesOf(allow: AllowList, ip: string) {
  const parsed = parseStrict(ip);
  if (!parsed) return [];
  const candidates = [parsed, unwrap(parsed)];
  return allow.ranges.filter(({ base, bits }) => candidates.some((a) => a.kind() === base.kind() && a.match(base, bits)));
}

/** May this address be reached on this port (an entry names it, and that entry opens the port)? */
export function allowsAddress(allow: AllowList, ip: string, port: number): boolean {
  return rangesOf(allow, ip).some((r) => opens(r.ports, port));
}

/** Does the allow list name this address at all, on whichever ports? (What a refusal is about.) */
export function namesAddress(allow: AllowList, ip: string): boolean {
  return rangesOf(allow, ip).length > 0;
}

/** May this host (a name or an address literal, as a URL spells it) be reached on this port? */
export function allowsHost(allow: AllowList, host: string, port: number): boolean {
  const h = normalizeHost(host);
  if (net.isIP(h) !== 0) return allowsAddress(allow, h, port);
  return allow.hosts.some((entry) => entry.name === h && opens(entry.ports, port));
}

/** Does an address or range of the allow list open this port (as opposed to only host names)? */
export function hasAllowedAddresses(allow: AllowList, port: number): boolean {
  return allow.ranges.some((r) => opens(r.ports, port));
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const IPV4_TRANSLATED = ipaddr.parseCIDR('::ffff:0:0:0/96');

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address an IPv6 address carries and would deliver to: mapped and translated
 * (::ffff:a.b.c.d), the deprecated compatible form (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4
 * (2002:AABB:CCDD::). Without this, [::ffff:127.0.0.1] would be a way to reach loopback.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(IPV4_TRANSLATED) || address.match(NAT64_WELL_KNOWN)) return v4FromParts(p[6], p[7]);
  if (address.match(SIX_TO_FOUR)) return v4FromParts(p[1], p[2]);
  if (address.match(IPV4_COMPATIBLE) && address.range() !== 'unspecified' && address.range() !== 'loopback') {
    return v4FromParts(p[6], p[7]);
  }
  return null;
}

/**
 * True only for globally routable unicast addresses. ipaddr.js names every special-purpose range
 * (loopback, private, link-local with the metadata service, CGNAT, multicast, broadcast,
 * documentation, benchmarking, 240/4, unique-local, Teredo, ORCHID...) and calls the rest
 * "unicast"; on top of that, IPv6 must lie in 2000::/3, the only space handed out for the public
 * internet, and an embedded IPv4 address is judged by the IPv4 rules. Anything unparsable is not
 * public: the policy fails closed.
 */
export function isPublicAddress(ip: string): boolean {
  const address = parseStrict(ip);
  if (!address) return false;
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  // a zone names a local interface: only link-local addresses have one
  if (v6.zoneId) return false;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}
