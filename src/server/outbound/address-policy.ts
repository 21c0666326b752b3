import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which network addresses Byline may reach when it fetches a URL someone typed. Only globally
 * routable addresses, so that a live-article link can never make the server talk to itself, its
 * cloud's metadata service or the private network around it; LINK_CHECK_ALLOW opens exceptions
 * (tests, an outlet on a company network).
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** LINK_CHECK_ALLOW parsed: names, single addresses and CIDR ranges. */
export interface AllowList {
  readonly hosts: ReadonlySet<string>;
  readonly ranges: readonly (readonly [Address, number])[];
}

/** The canonical spelling of a host name: lower case, no brackets, no final dot. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/**
 * Parses LINK_CHECK_ALLOW: comma-separated host names, IP addresses or CIDR ranges. An entry that
 * is none of these throws, so that a typo is found when the server starts rather than silently
 * leaving the outlet blocked (or, worse, something else open).
 */
export function parseAllowList(setting: string | undefined): AllowList {
  const hosts = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const raw of (setting ?? '').split(',')) {
    const entry = normalizeHost(raw);
    if (!entry) continue;
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`LINK_CHECK_ALLOW: "${raw.trim()}" is not a valid CIDR range`);
      ranges.push(ipaddr.parseCIDR(entry));
    } else if (net.isIP(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (isHostName(entry)) {
      hosts.add(entry);
    } else {
      throw new Error(`LINK_CHECK_ALLOW: "${raw.trim()}" is not a host name, an IP address or a CIDR range`);
    }
  }
  return { hosts, ranges };
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

/** Is this address on the allow list (exactly or inside one of its ranges)? */
export function allowsAddress(allow: AllowList, ip: string): boolean {
  const parsed = parseStrict(ip);
  if (!parsed) return false;
  const candidates = [parsed, unwrap(parsed)];
  return allow.ranges.some(([base, bits]) => candidates.some((a) => a.kind() === base.kind() && a.match(base, bits)));
}

/** Is this host (a name or an address literal, as a URL spells it) on the allow list? */
export function allowsHost(allow: AllowList, host: string): boolean {
  const h = normalizeHost(host);
  return allow.hosts.has(h) || (net.isIP(h) !== 0 && allowsAddress(allow, h));
}

/** Does the allow list name any addresses (as opposed to only host names)? */
export function hasAllowedAddresses(allow: AllowList): boolean {
  return allow.ranges.length > 0;
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
