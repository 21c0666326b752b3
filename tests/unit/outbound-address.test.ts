import { describe, expect, it } from 'vitest';
import {
  allowsAddress,
  allowsHost,
  hasAllowedAddresses,
  isPublicAddress,
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

describe('parseAllowList', () => {
  it('reads nothing from an empty or missing setting', () => {
    for (const setting of [undefined, '', ' ', ', ,']) {
      const allow = parseAllowList(setting);
      expect(allow.hosts.size).toBe(0);
      expect(allow.ranges).toHaveLength(0);
      expect(hasAllowedAddresses(allow)).toBe(false);
    }
  });

  it('accepts host names, addresses and CIDR ranges, normalised', () => {
    const allow = parseAllowList(' Outlet.Test. , intranet_host, 127.0.0.1, [::1], 10.0.0.0/8, fc00::/7,news.internal ');
    expect([...allow.hosts].sort()).toEqual(['intranet_host', 'news.internal', 'outlet.test']);
    expect(allow.ranges.map(([base, bits]) => `${base.toString()}/${bits}`)).toEqual(['127.0.0.1/32', '::1/128', '10.0.0.0/8', 'fc00::/7']);
    expect(hasAllowedAddresses(allow)).toBe(true);
  });

  it.each(['not a host!', '10.0.0.0/99', '1.2.3.4/33', '::1/129', 'a..b', '-outlet.test', 'outlet-.test', '*.outlet.test', 'http://outlet.test', 'outlet.test:8080', 'good.test, bad host'])(
    'refuses %j with an Error naming the entry',
    (setting) => {
      expect(() => parseAllowList(setting)).toThrow(Error);
      expect(() => parseAllowList(setting)).toThrow(/LINK_CHECK_ALLOW: ".+" is not/);
    },
  );

  it('refuses a label longer than 63 characters and a name longer than 253', () => {
    expect(() => parseAllowList(`${'a'.repeat(64)}.test`)).toThrow(/LINK_CHECK_ALLOW/);
    expect(() => parseAllowList(Array.from({ length: 64 }, () => 'abc').join('.'))).toThrow(/LINK_CHECK_ALLOW/);
    expect(parseAllowList(`${'a'.repeat(63)}.test`).hosts.size).toBe(1);
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
  ])('%s -> %s', (ip, allowed) => expect(allowsAddress(allow, ip)).toBe(allowed));

  it('allows nothing with an empty list', () => {
    const none = parseAllowList('');
    for (const ip of ['127.0.0.1', '::1', '8.8.8.8', '10.0.0.1']) expect(allowsAddress(none, ip)).toBe(false);
  });

  it('never allows by a host name entry', () => {
    expect(allowsAddress(parseAllowList('localhost'), '127.0.0.1')).toBe(false);
  });
});

describe('allowsHost', () => {
  const allow = parseAllowList('outlet.test, 127.0.0.0/8, ::1');

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
  ])('%j -> %s', (host, allowed) => expect(allowsHost(allow, host)).toBe(allowed));
});
