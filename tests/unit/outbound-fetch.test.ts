import { randomBytes } from 'node:crypto';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList } from '../../src/server/outbound/address-policy';
import { pageEncoding } from '../../src/server/outbound/charset';
import { dial, type Dialer } from '../../src/server/outbound/dial';
import { fetchPage, type FetchOptions } from '../../src/server/outbound/fetch-page';
import { FetchProblem } from '../../src/server/outbound/fetch-problem';
import { scanHtml } from '../../src/server/outbound/html-scan';
import { vetTarget, type Resolver, type Target } from '../../src/server/outbound/target';
import { endless, html, redirect, startOutlet, type Outlet, type Route } from '../support/outlet';

/**
 * fetchPage against real HTTP servers on loopback. Nothing here may ever reach another machine:
 * every fetch gets the stand-in resolver below (never the system's DNS) and a dialler that throws
 * rather than connect anywhere but loopback, so a rule that let a public or private address
 * through fails the test instead of sending a packet.
 */

const UA = 'BylineBot/1.0 (+https://byline.test)';
const MB = 1024 * 1024;

/** The DNS of these tests; any other name does not exist. */
const ZONE: Record<string, string[]> = {
  'outlet.test': ['127.0.0.1'],
  'www.outlet.test': ['127.0.0.1'],
  'evil.test': ['127.0.0.1'],
  'second.test': ['127.0.0.2'],
  'v6.test': ['::1'],
  localhost: ['127.0.0.1', '::1'],
  'public.test': ['93.184.216.34'],
  'mixed.test': ['8.8.8.8', '127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'private.test': ['10.0.0.5'],
  'cgnat.test': ['100.64.0.1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'ula.test': ['fd00:ec2::254'],
  'zoned.test': ['fe80::1%eth0'],
  'garbage.test': ['not-an-address'],
  'empty.test': [],
};

const isLoopback = (ip: string) => (net.isIPv4(ip) ? ip.startsWith('127.') : ip === '::1');

interface Harness {
  opts: FetchOptions;
  /** every target the fetcher opened a connection to */
  dialled: Target[];
  /** every name it looked up */
  lookedUp: string[];
}

function harness(allow = '', extra: Partial<FetchOptions> = {}): Harness {
  const dialled: Target[] = [];
  const lookedUp: string[] = [];
  const resolve: Resolver = async (host) => {
    lookedUp.push(host);
    const found = ZONE[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
  const connect: Dialer = (target) => {
    dialled.push(target);
    const away = target.addresses.filter((a) => !isLoopback(a.address));
    if (away.length > 0) throw new Error(`the test would have dialled ${away.map((a) => a.address).join(', ')}`);
    return dial(target);
  };
  return { opts: { allow: parseAllowList(allow), userAgent: UA, resolve, connect, ...extra }, dialled, lookedUp };
}

/** The FetchProblem a promise rejects with (anything else fails the test). */
async function problemOf(promise: Promise<unknown>): Promise<FetchProblem> {
  const error = await promise.then(
    () => new Error('expected a FetchProblem, but the fetch succeeded'),
    (e: unknown) => e,
  );
  if (!(error instanceof FetchProblem)) throw error;
  return error;
}

async function elapsed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/** Encodes Cyrillic text as windows-1251 by the code page's table (ASCII stays ASCII). */
function cp1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return 0xc0 + (code - 0x410); // А..я
      if (ch === 'Ё') return 0xa8;
      if (ch === 'ё') return 0xb8;
      throw new Error(`no windows-1251 byte for ${ch}`);
    }),
  );
}

const PAGE = '<!doctype html><html><head><title>Hello</title></head><body><p>A page.</p></body></html>';
const CYRILLIC_TITLE = 'Новости: Ёжик в тумане';
/** incompressible: 100 KB of it is a fraction of the stream, wherever it is cut */
const GZIPPED_NOISE = zlib.gzipSync(randomBytes(400_000));

const routes: Record<string, Route> = {
  '/page': html(PAGE),
  '/error': (_req, res) => void res.writeHead(500, { 'Content-Type': 'text/html' }).end('<title>Oops</title>'),
  '/bad-request': (_req, res) => void res.writeHead(400, { 'Content-Type': 'text/html' }).end('<title>Bad request</title>'),
  '/gone': (_req, res) => void res.writeHead(410, { 'Content-Type': 'text/html' }).end(),
  '/pdf': (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.7\n'),
  '/plain': (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('<html> not really'),
  '/untyped-html': (_req, res) => void res.writeHead(200).end(`\n  ${PAGE}`),
  '/untyped-binary': (_req, res) => void res.writeHead(200).end('%PDF-1.7\n%\xff\xff'),
  '/xhtml': (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/xhtml+xml' }).end(PAGE),
  '/quoted-charset': (_req, res) => void res.writeHead(200, { 'Content-Type': 'Text/HTML; Charset="ISO-8859-1"' }).end(PAGE),
  '/huge-declared': endless(20 * MB, { 'Content-Type': 'text/html', 'Content-Length': 20 * MB }),
  '/huge-chunked': endless(20 * MB, { 'Content-Type': 'text/html' }),
  '/just-right': endless(1000, { 'Content-Type': 'text/html' }),
  '/one-too-many': endless(1001, { 'Content-Type': 'text/html' }),
  '/gzip': html(zlib.gzipSync(PAGE), { 'Content-Encoding': 'gzip' }),
  '/deflate': html(zlib.deflateSync(PAGE), { 'Content-Encoding': 'deflate' }),
  '/br': html(zlib.brotliCompressSync(PAGE), { 'Content-Encoding': 'br' }),
  // applied gzip first, then br: undone in the opposite order
  '/gzip-br': html(zlib.brotliCompressSync(zlib.gzipSync(PAGE)), { 'Content-Encoding': 'gzip, br' }),
  '/compress': html(PAGE, { 'Content-Encoding': 'compress' }),
  '/damaged': html('this was never gzip', { 'Content-Encoding': 'gzip' }),
  // a whole answer whose gzip stream stops short
  '/truncated': html(GZIPPED_NOISE.subarray(0, 100_000), { 'Content-Encoding': 'gzip' }),
  // a gzip stream cut off with the connection, its Content-Length never reached
  '/cut-gzip': (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip', 'Content-Length': GZIPPED_NOISE.length });
    res.write(GZIPPED_NOISE.subarray(0, 100_000), () => setTimeout(() => req.socket.destroy(), 20));
  },
  '/drip': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    const timer = setInterval(() => res.write('a'), 200);
    res.on('close', () => clearInterval(timer));
  },
  '/silent': () => {
    // never answers
  },
  '/reset': (req) => void req.socket.destroy(),
  '/garbage': (req) => void req.socket.end('THIS IS NOT HTTP\r\n\r\n'),
  '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
  '/to-metadata-name': redirect('http://metadata.test/latest/meta-data/', 301),
  '/to-ftp': redirect('ftp://outlet.test/file', 307),
  '/to-credentials': redirect('http://admin:secret@outlet.test/', 308),
  '/to-bad': redirect('http://[bad/', 302),
  '/cp1251': html(cp1251(`<html><head><title>${CYRILLIC_TITLE}</title></head><body><p>Текст</p></body></html>`), {
    'Content-Type': 'text/html; charset=windows-1251',
  }),
  '/cp1251-meta': html(cp1251(`<html><head><meta charset="windows-1251"><title>${CYRILLIC_TITLE}</title></head></html>`), {
    'Content-Type': 'text/html',
  }),
};
// chains of n redirects (every redirect status, relative Locations) ending at a page
for (const n of [5, 6]) {
  for (let i = 0; i < n; i++) routes[`/chain${n}/${i}`] = redirect(`/chain${n}/${i + 1}`, [301, 302, 303, 307, 308][i % 5]);
  routes[`/chain${n}/${n}`] = html(PAGE);
}

let outlet: Outlet;
/** a second server, on 127.0.0.2: counts whether anything ever connected to it */
let other: Outlet;
let bomb: Buffer;

beforeAll(async () => {
  outlet = await startOutlet(routes);
  other = await startOutlet({ '/page': html(PAGE) }, '127.0.0.2');
  routes['/to-literal'] = redirect(outlet.url('/page'));
  routes['/to-evil-port'] = redirect(`http://evil.test:${outlet.port}/page`);
  routes['/to-evil'] = redirect('http://evil.test/page');
  routes['/to-www'] = redirect(`http://www.outlet.test:${outlet.port}/page`);
  // 50 MB of zeros: about 50 KB on the wire
  bomb = zlib.gzipSync(Buffer.alloc(50 * MB), { level: 9 });
  routes['/bomb'] = html(bomb, { 'Content-Encoding': 'gzip' });
});

afterAll(async () => {
  await outlet?.close();
  await other?.close();
});

const at = (path: string) => `http://outlet.test:${outlet.port}${path}`;
/** LINK_CHECK_ALLOW naming outlet.test on the port the outlet listens on */
const named = () => `outlet.test:${outlet.port}`;

describe('fetchPage: addresses that are never visited', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.1.2.3/',
    'https://127.0.0.1/',
    'http://[::1]/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'https://169.254.169.254/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://198.18.0.1/',
    'http://192.0.2.1/',
    'http://240.0.0.1/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001:db8::1]/',
    // spellings the URL parser turns into 127.0.0.1
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
  ])('%s: blocked_address, nothing looked up or dialled', async (url) => {
    const h = harness();
    const problem = await problemOf(fetchPage(url, h.opts));
    expect(problem.code).toBe('blocked_address');
    expect(problem.message).toMatch(/private or reserved network address/);
    expect(h.lookedUp).toEqual([]);
    expect(h.dialled).toEqual([]);
  });

  it.each([
    ['localhost', '127.0.0.1'],
    ['evil.test', '127.0.0.1'],
    ['metadata.test', '169.254.169.254'],
    ['private.test', '10.0.0.5'],
    ['cgnat.test', '100.64.0.1'],
    ['mapped.test', '::ffff:127.0.0.1'],
    ['nat64.test', '64:ff9b::a9fe:a9fe'],
    ['ula.test', 'fd00:ec2::254'],
    ['zoned.test', 'fe80::1%eth0'],
    ['garbage.test', 'not-an-address'],
    // one good address does not make up for a bad one: the connection could pick either
    ['mixed.test', '127.0.0.1'],
  ])('a name leading to a blocked address (%s -> %s): blocked_address, nothing dialled', async (name, address) => {
    const h = harness();
    const problem = await problemOf(fetchPage(`http://${name}/`, h.opts));
    expect(problem.code).toBe('blocked_address');
    expect(problem.message).toContain(`${name} leads to ${address}`);
    expect(problem.url).toBe(`http://${name}/`);
    expect(h.lookedUp).toEqual([name]);
    expect(h.dialled).toEqual([]);
  });

  it('never connects to a loopback server that is not allowed, by name or by address', async () => {
    // an allowed address elsewhere makes the port depend on the addresses, so the name is looked up
    const h = harness(`127.0.0.1:${other.port}`);
    const byName = await problemOf(fetchPage(`http://second.test:${other.port}/page`, h.opts));
    expect(byName.code).toBe('blocked_address');
    const byAddress = await problemOf(fetchPage(other.url('/page'), h.opts));
    expect(byAddress.code).toBe('blocked_port');
    const bare = harness();
    expect((await problemOf(fetchPage(`http://second.test:${other.port}/page`, bare.opts))).code).toBe('blocked_port');
    expect(h.dialled).toEqual([]);
    expect(bare.dialled).toEqual([]);
    expect(other.connections).toBe(0);
    expect(other.requests).toHaveLength(0);
  });

  it('reaches the same server once it is allowed (the counter works)', async () => {
    const h = harness(`127.0.0.2:${other.port}`);
    const page = await fetchPage(other.url('/page'), h.opts);
    expect(page.status).toBe(200);
    expect(other.connections).toBe(1);
    expect(h.dialled.map((t) => t.addresses)).toEqual([[{ address: '127.0.0.2', family: 4 }]]);
  });
});

describe('fetchPage: LINK_CHECK_ALLOW', () => {
  it('allows a listed address', async () => {
    const h = harness(`127.0.0.1:${outlet.port}`);
    const page = await fetchPage(outlet.url('/page'), h.opts);
    expect(page).toMatchObject({ status: 200, finalUrl: outlet.url('/page'), charset: 'utf-8' });
    expect(page.body.toString()).toBe(PAGE);
    expect(h.lookedUp).toEqual([]);
    expect(h.dialled).toHaveLength(1);
  });

  it('allows a name leading into a listed range', async () => {
    const h = harness(`127.0.0.0/8:${outlet.port}`);
    const page = await fetchPage(at('/page'), h.opts);
    expect(page.body.toString()).toBe(PAGE);
    expect(h.lookedUp).toEqual(['outlet.test']);
  });

  it('allows a listed host name, whatever it resolves to, but only that name', async () => {
    const h = harness(named());
    expect((await fetchPage(at('/page'), h.opts)).status).toBe(200);
    // case and a final dot do not matter
    expect((await fetchPage(`http://OUTLET.test.:${outlet.port}/page`, h.opts)).status).toBe(200);
    // www. is another name; with no address allowed the port alone refuses it, before any lookup
    const lookups = h.lookedUp.length;
    expect((await problemOf(fetchPage(`http://www.outlet.test:${outlet.port}/page`, h.opts))).code).toBe('blocked_port');
    expect((await problemOf(fetchPage('http://evil.test/page', h.opts))).code).toBe('blocked_address');
    expect(h.lookedUp.slice(lookups)).toEqual(['evil.test']);
    expect(h.dialled).toHaveLength(2);
  });

  it('reaches IPv6 loopback when it is listed, by address and by name', async () => {
    const v6 = await startOutlet({ '/page': html(PAGE) }, '::1');
    try {
      const h = harness(`[::1]:${v6.port}`);
      expect((await fetchPage(v6.url('/page'), h.opts)).body.toString()).toBe(PAGE);
      expect((await fetchPage(`http://v6.test:${v6.port}/page`, h.opts)).body.toString()).toBe(PAGE);
      expect(v6.connections).toBe(2);
      expect(v6.requests[0].headers.host).toBe(`[::1]:${v6.port}`);
    } finally {
      await v6.close();
    }
  });
});

describe('fetchPage: the ports LINK_CHECK_ALLOW opens', () => {
  /** a second server on 127.0.0.1, on a port no entry names: counts whether anything reached it */
  let trap: Outlet;
  beforeAll(async () => {
    trap = await startOutlet({ '/page': html(PAGE) });
    routes['/to-trap-by-name'] = redirect(`http://outlet.test:${trap.port}/page`);
    routes['/to-trap-by-address'] = redirect(trap.url('/page'));
  });
  afterAll(() => trap?.close());

  it('a bare host, address or range opens ports 80 and 443 only: a server on another port is never dialled', async () => {
    const h = harness('outlet.test, 127.0.0.1, 127.0.0.0/8');
    const requests = outlet.requests.length;
    for (const url of [at('/page'), outlet.url('/page'), `http://www.outlet.test:${outlet.port}/page`]) {
      const problem = await problemOf(fetchPage(url, h.opts));
      expect(problem.code, url).toBe('blocked_port');
      expect(problem.message).toBe(`The address uses port ${outlet.port}; Byline only visits web pages on the standard ports (80 and 443).`);
    }
    expect(h.lookedUp).toEqual([]);
    expect(h.dialled).toEqual([]);
    expect(outlet.requests).toHaveLength(requests);
  });

  it('an entry with a port opens exactly that port (a span: the ports in it)', async () => {
    for (const allow of [named(), `127.0.0.1:${outlet.port}`, `127.0.0.0/8:${outlet.port}`, `127.0.0.1:${outlet.port}-${outlet.port}`]) {
      const h = harness(allow);
      expect((await fetchPage(at('/page'), h.opts)).body.toString(), allow).toBe(PAGE);
      const problem = await problemOf(fetchPage(`http://outlet.test:${trap.port}/page`, h.opts));
      expect(problem.code, allow).toBe('blocked_port');
      expect(h.dialled.map((t) => t.port)).toEqual([outlet.port]);
    }
    expect(trap.connections).toBe(0);
  });

  it('a redirect to a port no entry names is refused, by name and by address, without dialling it', async () => {
    for (const [allow, path] of [
      [named(), '/to-trap-by-name'],
      [named(), '/to-trap-by-address'],
      [`127.0.0.1:${outlet.port}`, '/to-trap-by-name'],
      [`127.0.0.1:${outlet.port}`, '/to-trap-by-address'],
      [`127.0.0.0/8:${outlet.port}`, '/to-trap-by-name'],
    ]) {
      const h = harness(allow);
      const problem = await problemOf(fetchPage(at(path), h.opts));
      expect(problem, `${allow} ${path}`).toMatchObject({ code: 'blocked_port', url: path.endsWith('name') ? `http://outlet.test:${trap.port}/page` : trap.url('/page') });
      expect(h.dialled.map((t) => t.port)).toEqual([outlet.port]);
    }
    expect(trap.connections).toBe(0);
  });

  it('a name leading to an allowed and a public address never reaches the public one on a non-standard port', async () => {
    // mixed.test is 8.8.8.8 and 127.0.0.1: the loopback address is allowed on the outlet's port, the public one is not
    for (const allow of [`127.0.0.1:${outlet.port}`, '127.0.0.0/8:1-65535']) {
      const h = harness(allow);
      const problem = await problemOf(fetchPage(`http://mixed.test:${outlet.port}/page`, h.opts));
      expect(problem, allow).toMatchObject({ code: 'blocked_port', url: `http://mixed.test:${outlet.port}/page` });
      expect(h.lookedUp).toEqual(['mixed.test']);
      expect(h.dialled).toEqual([]);
    }
  });

  it('an address allowed only on other ports is refused on the standard ones as any private address', async () => {
    const h = harness(`127.0.0.1:${outlet.port}`);
    const problem = await problemOf(fetchPage('http://evil.test/page', h.opts));
    expect(problem.code).toBe('blocked_address');
    expect(h.dialled).toEqual([]);
  });
});

describe('fetchPage: ports, schemes and credentials', () => {
  it.each(['http://public.test:8080/', 'https://public.test:8443/', 'http://8.8.8.8:8080/', 'http://outlet.test:22/'])(
    '%s without an allow list: blocked_port, decided before any lookup',
    async (url) => {
      const h = harness();
      const problem = await problemOf(fetchPage(url, h.opts));
      expect(problem.code).toBe('blocked_port');
      expect(problem.message).toMatch(/port \d+.*standard ports \(80 and 443\)/);
      expect(h.lookedUp).toEqual([]);
      expect(h.dialled).toEqual([]);
    },
  );

  it('a public address on a non-standard port stays blocked when only other addresses are allowed', async () => {
    const h = harness('127.0.0.0/8:8080');
    const problem = await problemOf(fetchPage('http://public.test:8080/', h.opts));
    expect(problem.code).toBe('blocked_port');
    expect(h.lookedUp).toEqual(['public.test']);
    expect(h.dialled).toEqual([]);
  });

  it.each([
    'file:///etc/passwd',
    'ftp://outlet.test/file',
    'javascript:alert(1)',
    'data:text/html,<title>x</title>',
    'gopher://outlet.test/',
    'http://user:pass@outlet.test/',
    'http://user@outlet.test/',
    'https://:secret@outlet.test/',
    'not a url',
    '',
    'http://',
    'http://[fe80::1%25eth0]/',
  ])('%j: bad_url, nothing looked up or dialled', async (url) => {
    const h = harness('outlet.test, 127.0.0.0/8');
    const problem = await problemOf(fetchPage(url, h.opts));
    expect(problem.code).toBe('bad_url');
    expect(h.lookedUp).toEqual([]);
    expect(h.dialled).toEqual([]);
  });
});

describe('fetchPage: redirects', () => {
  it('a redirect to the metadata service is refused without dialling it', async () => {
    const h = harness(named());
    const problem = await problemOf(fetchPage(at('/to-metadata'), h.opts));
    expect(problem.code).toBe('blocked_address');
    expect(problem.url).toBe('http://169.254.169.254/latest/meta-data/');
    expect(h.dialled.map((t) => t.host)).toEqual(['outlet.test']);
  });

  it('so is a redirect to a name leading to it', async () => {
    const h = harness(named());
    expect((await problemOf(fetchPage(at('/to-metadata-name'), h.opts))).code).toBe('blocked_address');
    expect(h.lookedUp).toEqual(['outlet.test', 'metadata.test']);
    expect(h.dialled).toHaveLength(1);
  });

  it('every hop is judged on its own: an allowed name does not open the addresses it redirects to', async () => {
    const h = harness(named());
    expect((await problemOf(fetchPage(at('/to-literal'), h.opts))).code).toBe('blocked_port');
    expect((await problemOf(fetchPage(at('/to-evil-port'), h.opts))).code).toBe('blocked_port');
    expect((await problemOf(fetchPage(at('/to-evil'), h.opts))).code).toBe('blocked_address');
    expect(h.dialled.map((t) => t.host)).toEqual(['outlet.test', 'outlet.test', 'outlet.test']);
  });

  it('follows a redirect to another allowed host, looking it up', async () => {
    const h = harness(`127.0.0.0/8:${outlet.port}`);
    const page = await fetchPage(at('/to-www'), h.opts);
    expect(page.finalUrl).toBe(`http://www.outlet.test:${outlet.port}/page`);
    expect(h.lookedUp).toEqual(['outlet.test', 'www.outlet.test']);
  });

  it.each([
    ['/to-ftp', /not "ftp:"/],
    ['/to-credentials', /user name or password/],
  ])('a redirect to %s: bad_url', async (path, message) => {
    const h = harness(named());
    const problem = await problemOf(fetchPage(at(path), h.opts));
    expect(problem.code).toBe('bad_url');
    expect(problem.message).toMatch(message);
    expect(h.dialled).toHaveLength(1);
  });

  it('a redirect to an unreadable address: bad_url with the redirect status', async () => {
    const problem = await problemOf(fetchPage(at('/to-bad'), harness(named()).opts));
    expect(problem).toMatchObject({ code: 'bad_url', status: 302 });
  });

  it('follows 5 redirects', async () => {
    const h = harness(named());
    const page = await fetchPage(at('/chain5/0'), h.opts);
    expect(page.finalUrl).toBe(at('/chain5/5'));
    expect(page.body.toString()).toBe(PAGE);
    expect(h.dialled).toHaveLength(6);
  });

  it('stops at the 6th: too_many_redirects, without following it', async () => {
    const h = harness(named());
    const problem = await problemOf(fetchPage(at('/chain6/0'), h.opts));
    expect(problem).toMatchObject({ code: 'too_many_redirects', url: at('/chain6/5'), status: 301 });
    expect(problem.message).toMatch(/more than 5 times/);
    expect(h.dialled).toHaveLength(6);
    expect(outlet.requests.some((r) => r.url === '/chain6/6')).toBe(false);
  });

  it('obeys maxRedirects', async () => {
    const problem = await problemOf(fetchPage(at('/chain5/0'), harness(named(), { maxRedirects: 0 }).opts));
    expect(problem).toMatchObject({ code: 'too_many_redirects', status: 301 });
  });
});

describe('fetchPage: answers that are not a page', () => {
  it.each([
    ['/nowhere', 404, /404 Not Found/],
    ['/gone', 410, /410 Gone/],
    ['/error', 500, /500 Internal Server Error/],
    // the first status that is not a page: an HTML answer to it is still an error
    ['/bad-request', 400, /400 Bad Request/],
  ])('%s: http_error with the status', async (path, status, message) => {
    const problem = await problemOf(fetchPage(at(path), harness(named()).opts));
    expect(problem).toMatchObject({ code: 'http_error', status, url: at(path) });
    expect(problem.message).toMatch(message);
  });

  it.each([
    ['/pdf', /application\/pdf/],
    ['/plain', /text\/plain/],
    ['/untyped-binary', /does not look like HTML/],
  ])('%s: not_html', async (path, message) => {
    const problem = await problemOf(fetchPage(at(path), harness(named()).opts));
    expect(problem).toMatchObject({ code: 'not_html', status: 200 });
    expect(problem.message).toMatch(message);
  });

  it('takes a page sent without a type when it starts like HTML', async () => {
    const page = await fetchPage(at('/untyped-html'), harness(named()).opts);
    expect(page.headers['content-type']).toBeUndefined();
    expect(page.charset).toBeNull();
    expect(page.body.toString()).toContain('<title>Hello</title>');
  });

  it('takes XHTML, and reads a quoted charset', async () => {
    expect((await fetchPage(at('/xhtml'), harness(named()).opts)).status).toBe(200);
    expect((await fetchPage(at('/quoted-charset'), harness(named()).opts)).charset).toBe('ISO-8859-1');
  });
});

describe('fetchPage: size', () => {
  it('refuses a 20 MB page at once when its length is declared', async () => {
    const [problem, ms] = await elapsed(() => problemOf(fetchPage(at('/huge-declared'), harness(named()).opts)));
    expect(problem.code).toBe('too_large');
    expect(problem.message).toMatch(/larger than 5 MB/);
    expect(ms).toBeLessThan(3000);
  });

  it('stops reading a 20 MB page of no declared length after 5 MB', async () => {
    const [problem, ms] = await elapsed(() => problemOf(fetchPage(at('/huge-chunked'), harness(named()).opts)));
    expect(problem.code).toBe('too_large');
    expect(ms).toBeLessThan(3000);
  });

  it('counts after decompression: a 50 KB gzip bomb of 50 MB is too_large', async () => {
    expect(bomb.length).toBeLessThan(100 * 1024);
    const [problem, ms] = await elapsed(() => problemOf(fetchPage(at('/bomb'), harness(named()).opts)));
    expect(problem.code).toBe('too_large');
    expect(ms).toBeLessThan(3000);
  });

  it('maxBytes is the most read, exactly', async () => {
    expect((await fetchPage(at('/just-right'), harness(named(), { maxBytes: 1000 }).opts)).body).toHaveLength(1000);
    const problem = await problemOf(fetchPage(at('/one-too-many'), harness(named(), { maxBytes: 1000 }).opts));
    expect(problem.code).toBe('too_large');
  });
});

describe('fetchPage: compression', () => {
  it('asks for gzip, deflate and br, and sends the User-Agent it is given', async () => {
    await fetchPage(at('/page'), harness(named()).opts);
    const req = outlet.requests.at(-1);
    expect(req?.headers['user-agent']).toBe(UA);
    expect(req?.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(req?.headers.host).toBe(`outlet.test:${outlet.port}`);
    expect(req?.method).toBe('GET');
  });

  it.each(['/gzip', '/deflate', '/br', '/gzip-br'])('%s: decoded', async (path) => {
    const page = await fetchPage(at(path), harness(named()).opts);
    expect(page.body.toString()).toBe(PAGE);
  });

  it('a coding it cannot read: not_html naming it', async () => {
    const problem = await problemOf(fetchPage(at('/compress'), harness(named()).opts));
    expect(problem.code).toBe('not_html');
    expect(problem.message).toMatch(/"compress"/);
  });

  it.each(['/damaged', '/truncated'])('%s compressed content: unreachable, damaged', async (path) => {
    const problem = await problemOf(fetchPage(at(path), harness(named()).opts));
    expect(problem).toMatchObject({ code: 'unreachable', status: 200 });
    expect(problem.message).toMatch(/compressed content is damaged/);
  });

  it('a compressed page whose connection is cut: unreachable, cut off (not "damaged")', async () => {
    const problem = await problemOf(fetchPage(at('/cut-gzip'), harness(named()).opts));
    expect(problem.code).toBe('unreachable');
    expect(problem.message).toMatch(/connection to outlet\.test was cut off/);
  });
});

describe('fetchPage: time and failures', () => {
  it('a page dripping a byte every 200 ms: timeout', async () => {
    const [problem, ms] = await elapsed(() => problemOf(fetchPage(at('/drip'), harness(named(), { timeoutMs: 1000 }).opts)));
    expect(problem.code).toBe('timeout');
    expect(problem.message).toMatch(/within 1 second\b/);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
  });

  it('a server that never answers: timeout', async () => {
    const problem = await problemOf(fetchPage(at('/silent'), harness(named(), { timeoutMs: 300 }).opts));
    expect(problem.code).toBe('timeout');
    expect(problem.message).toMatch(/0\.3 seconds/);
  });

  it('a lookup that never ends: timeout', async () => {
    const h = harness('', { timeoutMs: 300, resolve: () => new Promise<string[]>(() => {}) });
    const problem = await problemOf(fetchPage('http://outlet.test/', h.opts));
    expect(problem.code).toBe('timeout');
    expect(h.dialled).toEqual([]);
  });

  it('a closed port: unreachable, refused', async () => {
    const closed = await startOutlet({});
    await closed.close();
    const problem = await problemOf(fetchPage(closed.url('/'), harness(`127.0.0.1:${closed.port}`).opts));
    expect(problem.code).toBe('unreachable');
    expect(problem.message).toMatch(/refused/);
  });

  it.each([
    ['nowhere.test', /could not be found \(its name does not resolve\)/],
    ['empty.test', /could not be found \(its name has no addresses\)/],
  ])('%s: unreachable', async (name, message) => {
    const h = harness();
    const problem = await problemOf(fetchPage(`https://${name}/article`, h.opts));
    expect(problem).toMatchObject({ code: 'unreachable', url: `https://${name}/article` });
    expect(problem.message).toMatch(message);
    expect(h.dialled).toEqual([]);
  });

  it('a connection cut before the answer: unreachable', async () => {
    const problem = await problemOf(fetchPage(at('/reset'), harness(named()).opts));
    expect(problem.code).toBe('unreachable');
    expect(problem.message).toMatch(/cut off/);
  });

  it('an answer that is not HTTP: unreachable, malformed', async () => {
    const problem = await problemOf(fetchPage(at('/garbage'), harness(named()).opts));
    expect(problem.code).toBe('unreachable');
    expect(problem.message).toMatch(/malformed/);
  });
});

describe('fetchPage: DNS rebinding', () => {
  it('connects to the address it checked, not to a second answer of the name', async () => {
    // the same port on two loopback addresses: the checked one, and the one a second lookup would give
    const decoy = await startOutlet({ '/page': html('<title>decoy</title>') }, '127.0.0.2');
    const real = await startOutlet({ '/page': html('<title>real</title>') }, '127.0.0.1', decoy.port);
    try {
      let calls = 0;
      const resolve: Resolver = async () => (calls++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']);
      const h = harness(`127.0.0.0/8:${decoy.port}`, { resolve });
      // rebind.test is in no DNS: only the pinned lookup can have found where to connect
      const page = await fetchPage(`http://rebind.test:${decoy.port}/page`, h.opts);
      expect(page.body.toString()).toBe('<title>real</title>');
      expect(calls).toBe(1);
      expect(real.connections).toBe(1);
      expect(decoy.connections).toBe(0);
      expect(h.dialled.map((t) => t.addresses)).toEqual([[{ address: '127.0.0.1', family: 4 }]]);
    } finally {
      await decoy.close();
      await real.close();
    }
  });
});

describe('vetTarget', () => {
  const signal = new AbortController().signal;
  const h = harness();
  const resolve = h.opts.resolve;

  it('accepts a public name on a standard port and pins its addresses', async () => {
    const target = await vetTarget(' https://Public.Test/a?b=1 ', parseAllowList(''), resolve, signal);
    expect(target).toMatchObject({ secure: true, host: 'public.test', port: 443, addresses: [{ address: '93.184.216.34', family: 4 }] });
    expect(target.url.href).toBe('https://public.test/a?b=1');
  });

  it('gives an IPv6 literal without brackets and with its family', async () => {
    const target = await vetTarget('http://[::1]:8080/', parseAllowList('[::1]:8080'), resolve, signal);
    expect(target).toMatchObject({ secure: false, host: '::1', port: 8080, addresses: [{ address: '::1', family: 6 }] });
  });

  it('rejects at once when the signal has already aborted', async () => {
    const aborted = AbortSignal.abort();
    await expect(vetTarget('http://public.test/', parseAllowList(''), resolve, aborted)).rejects.toThrow(/abort/i);
  });
});

describe('charset: a windows-1251 page', () => {
  it('the test encoder is right', () => {
    expect(new TextDecoder('windows-1251').decode(cp1251(CYRILLIC_TITLE))).toBe(CYRILLIC_TITLE);
  });

  it('is decoded by its Content-Type charset', async () => {
    const page = await fetchPage(at('/cp1251'), harness(named()).opts);
    expect(page.charset).toBe('windows-1251');
    const encoding = pageEncoding(page.body, page.charset);
    expect(encoding).toBe('windows-1251');
    const facts = await scanHtml(page.body, encoding);
    expect(facts.title).toBe(CYRILLIC_TITLE);
    expect(facts.text).toContain('Текст');
  });

  it('is decoded by its <meta charset> when the header names none', async () => {
    const page = await fetchPage(at('/cp1251-meta'), harness(named()).opts);
    expect(page.charset).toBeNull();
    const encoding = pageEncoding(page.body, page.charset);
    expect(encoding).toBe('windows-1251');
    expect((await scanHtml(page.body, encoding)).title).toBe(CYRILLIC_TITLE);
  });
});
