import { describe, expect, it } from 'vitest';
import {
  allowsAddress,
  allowsHost,
  hasAllowedAddresses,
  isPublicAddress,
  namesAddress,
  normalizeHost,
  parseAllowList,
} from '../../src/server/outbound/address-policy';

describe('isPublicAddress', () => {
  it.each([
    // loopback, written every way
    '127.0.0.1',
    '127.1.2.3',
    '127.255.255.254',
    '::1',
    // unspecified: "this host" on most systems
    '0.0.0.0',
    '0.1.2.3',
    '::',
    // private networks
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '192.168.255.255',
    // link-local, with the cloud metadata service
    '169.254.169.254',
    '169.254.0.1',
    // carrier-grade NAT
    '100.64.0.1',
    '100.127.255.254',
    // multicast and broadcast
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    // benchmarking, documentation, reserved
    '198.18.0.1',
    '198.19.255.255',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '240.0.0.1',
    // IPv6 unique-local (AWS's metadata service is fd00:ec2::254), link-local, multicast
    'fc00::1',
    'fd00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    // IPv6 spellings of IPv4 loopback and metadata: mapped, translated, compatible, NAT64, 6to4
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '::ffff:0:7f00:1',
    '::7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    // IPv6 documentation, Teredo, and space outside 2000::/3
    '2001:db8::1',
    '2001::1',
    '4000::1',
  ])('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => expect(isPublicAddress(ip)).toBe(true),
  );

  it.each(['', 'localhost', 'example.com', '127.1', '0177.0.0.1', '0x7f.0.0.1', '2130706433', '1.2.3.4.5', '256.0.0.1', '[::1]', ' 8.8.8.8', '8.8.8.8/32'])(
    'fails closed on %j, which is not a strictly written address',
    (value) => expect(isPublicAddress(value)).toBe(false),
  );
});

describe('normalizeHost', () => {
  it.each([
    ['Outlet.Test', 'outlet.test'],
    ['outlet.test.', 'outlet.test'],
    ['  WWW.outlet.test  ', 'www.outlet.test'],
    ['[::1]', '::1'],
    ['[FE80::1]', 'fe80::1'],
  ])('%j -> %j', (input, output) => expect(normalizeHost(input)).toBe(output));
});

/** An allow list's entries as text, to compare with what was written. */
const entries = (allow: ReturnType<typeof parseAllowList>) => [
  ...allow.hosts.map((h) => `${h.name} ${h.ports.map(([a, b]) => (a === b ? a : `${a}-${b}`)).join('+')}`),
  ...allow.ranges.map((r) => `${r.base.toString()}/${r.bits} ${r.ports.map(([a, b]) => (a === b ? a : `${a}-${b}`)).join('+')}`),
];

describe('parseAllowList', () => {
  it('reads nothing from an empty or missing setting', () => {
    for (const setting of [undefined, '', ' ', ', ,']) {
      const allow = parseAllowList(setting);
      expect(allow.hosts).toHaveLength(0);
      expect(allow.ranges).toHaveLength(0);
      expect(hasAllowedAddresses(allow, 80)).toBe(false);
    }
  });

  it('accepts host names, addresses and CIDR ranges, normalised, each on ports 80 and 443 when it names none', () => {
    const allow = parseAllowList(' Outlet.Test. , intranet_host, 127.0.0.1, [::1], 10.0.0.0/8, fc00::/7,news.internal ');
    expect(entries(allow)).toEqual([
      'outlet.test 80+443',
      'intranet_host 80+443',
      'news.internal 80+443',
      '127.0.0.1/32 80+443',
      '::1/128 80+443',
      '10.0.0.0/8 80+443',
      'fc00::/7 80+443',
    ]);
    expect(hasAllowedAddresses(allow, 443)).toBe(true);
    expect(hasAllowedAddresses(allow, 8080)).toBe(false);
  });

  it('accepts a port or a span of ports on every kind of entry (IPv6 in brackets)', () => {
    const allow = parseAllowList('outlet.test:8080, Outlet.Test.:8443, 127.0.0.1:1024-65535, 10.0.0.0/8:3000, [::1]:8080, [fc00::/7]:9000-9001, [::2], 192.0.2.1:1');
    expect(entries(allow)).toEqual([
      'outlet.test 8080',
      'outlet.test 8443',
      '127.0.0.1/32 1024-65535',
      '10.0.0.0/8 3000',
      '::1/128 8080',
      'fc00::/7 9000-9001',
      '::2/128 80+443',
      '192.0.2.1/32 1',
    ]);
    expect(hasAllowedAddresses(allow, 3000)).toBe(true);
    expect(hasAllowedAddresses(allow, 80)).toBe(true);
    expect(hasAllowedAddresses(allow, 22)).toBe(false);
  });

  it.each([
    'not a host!',
    '10.0.0.0/99',
    '1.2.3.4/33',
    '::1/129',
    'a..b',
    '-outlet.test',
    'outlet-.test',
    '*.outlet.test',
    'good.test, bad host',
    '[outlet.test]:8080',
    '[127.0.0.1]',
    '[10.0.0.0/8]:80',
    '[::1',
    '[::1]8080',
  ])('refuses %j with an Error naming the entry', (setting) => {
    expect(() => parseAllowList(setting)).toThrow(Error);
    expect(() => parseAllowList(setting)).toThrow(/LINK_CHECK_ALLOW: ".+" is not/);
  });

  it.each(['outlet.test:', 'outlet.test:0', 'outlet.test:65536', 'outlet.test:99999', 'outlet.test:http', 'outlet.test:8080-80', 'outlet.test:-1', 'outlet.test:1-', '[::1]:', '[::1]:70000', '127.0.0.1:*', 'http://outlet.test'])(
    'refuses the port of %j, naming the entry',
    (setting) => {
      expect(() => parseAllowList(setting)).toThrow(/LINK_CHECK_ALLOW: ".+" has a port that is not a number from 1 to 65535/);
    },
  );

  it('refuses a label longer than 63 characters and a name longer than 253', () => {
    expect(() => parseAllowList(`${'a'.repeat(64)}.test`)).toThrow(/LINK_CHECK_ALLOW/);
    expect(() => parseAllowList(Array.from({ length: 64 }, () => 'abc').join('.'))).toThrow(/LINK_CHECK_ALLOW/);
    expect(parseAllowList(`${'a'.repeat(63)}.test`).hosts).toHaveLength(1);
  });
});

describe('allowsAddress', () => {
  const allow = parseAllowList('127.0.0.0/8, 10.1.2.3, fd00::/8, ::1');

  it.each([
    ['127.0.0.1', true],
    ['127.200.1.1', true],
    ['10.1.2.3', true],
    ['10.1.2.4', false],
    ['::1', true],
    ['fd12:3456::1', true],
    ['fc00::1', false],
    // an IPv6 spelling of an allowed IPv4 address is allowed as that address
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.1.2.3', true],
    ['::ffff:10.1.2.4', false],
    ['64:ff9b::7f00:1', true],
    // ::1 on the list is IPv6 loopback, not the IPv4 address an IPv4-compatible ::1 would carry
    ['0.0.0.1', false],
    ['8.8.8.8', false],
    ['192.168.0.1', false],
    ['not an address', false],
    ['', false],
    ['127.1', false],
  ])('%s -> %s (on port 80 and 443)', (ip, allowed) => {
    expect(allowsAddress(allow, ip, 80)).toBe(allowed);
    expect(allowsAddress(allow, ip, 443)).toBe(allowed);
    expect(namesAddress(allow, ip)).toBe(allowed);
  });

  it('a bare entry opens ports 80 and 443 only', () => {
    for (const port of [1, 22, 79, 81, 442, 444, 3000, 8080, 65535]) expect(allowsAddress(allow, '127.0.0.1', port), String(port)).toBe(false);
  });

  it('an entry with a port opens exactly that port or span, and not 80 or 443', () => {
    const ported = parseAllowList('127.0.0.1:8080, 10.0.0.0/8:3000-3002, [::1]:9000, 127.0.0.2');
    expect([8079, 8080, 8081, 80, 443].map((p) => allowsAddress(ported, '127.0.0.1', p))).toEqual([false, true, false, false, false]);
    expect([2999, 3000, 3001, 3002, 3003, 80].map((p) => allowsAddress(ported, '10.9.8.7', p))).toEqual([false, true, true, true, false, false]);
    expect([9000, 80].map((p) => allowsAddress(ported, '::1', p))).toEqual([true, false]);
    // an IPv6 spelling of an allowed IPv4 address takes that entry's ports
    expect([8080, 80].map((p) => allowsAddress(ported, '::ffff:127.0.0.1', p))).toEqual([true, false]);
    expect([80, 443, 8080].map((p) => allowsAddress(ported, '127.0.0.2', p))).toEqual([true, true, false]);
    expect(namesAddress(ported, '127.0.0.1')).toBe(true);
    expect(namesAddress(ported, '127.0.0.3')).toBe(false);
  });

  it('two entries for one address open the ports of both', () => {
    const both = parseAllowList('127.0.0.1, 127.0.0.0/8:8080');
    expect([80, 443, 8080, 8081].map((p) => allowsAddress(both, '127.0.0.1', p))).toEqual([true, true, true, false]);
  });

  it('allows nothing with an empty list', () => {
    const none = parseAllowList('');
    for (const ip of ['127.0.0.1', '::1', '8.8.8.8', '10.0.0.1']) expect(allowsAddress(none, ip, 80)).toBe(false);
  });

  it('never allows by a host name entry', () => {
    expect(allowsAddress(parseAllowList('localhost'), '127.0.0.1', 80)).toBe(false);
    expect(namesAddress(parseAllowList('localhost'), '127.0.0.1')).toBe(false);
  });
});

describe('allowsHost', () => {
  const allow = parseAllowList('outlet.test, 127.0.0.0/8, ::1, intranet.test:8080');

  it.each([
    ['outlet.test', true],
    ['OUTLET.test', true],
    ['outlet.test.', true],
    // a name is allowed exactly: neither its www. nor other subdomains
    ['www.outlet.test', false],
    ['evil.outlet.test', false],
    ['outlet.test.evil.com', false],
    ['127.0.0.1', true],
    ['127.9.9.9', true],
    ['[::1]', true],
    ['::1', true],
    ['[::ffff:7f00:1]', true],
    ['10.0.0.1', false],
    ['localhost', false],
    ['', false],
    // named with a port: not on the standard ones
    ['intranet.test', false],
  ])('%j on port 443 -> %s', (host, allowed) => expect(allowsHost(allow, host, 443)).toBe(allowed));

  it('a bare name or address only on ports 80 and 443; a name with a port only on that port', () => {
    for (const host of ['outlet.test', '127.0.0.1', '[::1]']) {
      expect([80, 443, 8080, 22].map((p) => allowsHost(allow, host, p)), host).toEqual([true, true, false, false]);
    }
    expect([8080, 80, 443, 8081].map((p) => allowsHost(allow, 'intranet.test', p))).toEqual([true, false, false, false]);
  });
});
