import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList } from '../../src/server/outbound/address-policy';
import { dial, type Dialer } from '../../src/server/outbound/dial';
import type { FetchOptions } from '../../src/server/outbound/fetch-page';
import { fingerprintDistance, TEXT_CHANGED_DISTANCE } from '../../src/server/outbound/fingerprint';
import { scanHtml } from '../../src/server/outbound/html-scan';
import { checkPage, type PageCheckOptions } from '../../src/server/outbound/page-check';
import type { Resolver } from '../../src/server/outbound/target';
import { html, startOutlet, type Outlet, type Route } from '../support/outlet';

/**
 * checkPage against pages served on loopback. The outlet is reached as outlet.test, a name only
 * the stand-in resolver knows; the dialler refuses anything but loopback.
 */

const resolve: Resolver = async (host) => {
  if (host === 'outlet.test') return ['127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

const connect: Dialer = (target) => {
  const away = target.addresses.filter((a) => !(net.isIPv4(a.address) ? a.address.startsWith('127.') : a.address === '::1'));
  if (away.length > 0) throw new Error(`the test would have dialled ${away.map((a) => a.address).join(', ')}`);
  return dial(target);
};

/** outlet.test allowed on the port its server listens on (set once it does) */
let fetchOptions: FetchOptions;

function options(overrides: Partial<PageCheckOptions> = {}): PageCheckOptions {
  return { brandWebsites: ['acme.test'], promisedLinkType: null, fetch: fetchOptions, ...overrides };
}

/** Words from a small vocabulary in a fixed pseudo-random order: an article of `count` words. */
function article(vocabulary: string[], count: number, seed: number): string {
  let state = seed;
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    words.push(vocabulary[(state >>> 8) % vocabulary.length]);
  }
  return words.join(' ');
}

const GARDEN = 'garden tomato soil water sunlight seed compost harvest basil pepper spring rain root leaf mulch shade bloom weed prune trellis'.split(' ');
const MARKETS = 'market stock bond yield inflation rate bank equity dividend index futures option hedge credit debt fund broker trade price volatility'.split(' ');
const TEXT_A = article(GARDEN, 400, 1);
const TEXT_B = article(MARKETS, 400, 2);
/** TEXT_A with a handful of words changed: an edit, not a rewrite */
const TEXT_A_EDITED = TEXT_A.split(' ')
  .map((w, i) => (i % 97 === 0 ? 'typo' : w))
  .join(' ');

function page({ head = '', body = '', title = 'The article' }: { head?: string; body?: string; title?: string }): string {
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body><main><article><p>${TEXT_A}</p>${body}</article></main></body></html>`;
}

const LINK = '<a href="https://www.acme.test/shop">Acme</a>';

const routes: Record<string, Route> = {
  '/pass': html(page({ body: LINK })),
  '/bare-link': html(page({ body: '<a href="http://ACME.test">Acme</a>' })),
  '/base': html(page({ head: '<base href="https://www.acme.test/">', body: '<a href="/product">Acme</a>' })),
  '/relative': html(page({ body: '<a href="/product">ours</a>' })),
  '/no-link': html(page({ body: '<a href="https://elsewhere.test/">elsewhere</a>' })),
  '/lookalikes': html(
    page({
      body: [
        '<a href="https://acme.test.evil.test/">1</a>',
        '<a href="https://notacme.test/">2</a>',
        '<a href="https://shop.acme.test/">3</a>',
        '<a href="mailto:hello@acme.test">4</a>',
        '<a href="ftp://acme.test/">5</a>',
        '<a href="javascript:location=\'https://acme.test\'">6</a>',
        '<a href="http://[bad">7</a>',
        '<a>no href to https://acme.test</a>',
      ].join(' '),
    }),
  ),
  '/nofollow': html(page({ body: '<a href="https://acme.test/" rel="nofollow">Acme</a>' })),
  '/sponsored': html(page({ body: '<a href="https://acme.test/" rel="sponsored">Acme</a>' })),
  '/ugc': html(page({ body: '<a href="https://acme.test/" rel="UGC">Acme</a>' })),
  '/nofollow-sponsored': html(page({ body: '<a href="https://acme.test/" rel="nofollow\n sponsored">Acme</a>' })),
  '/best-of-two': html(page({ body: '<a href="https://acme.test/a" rel="nofollow">1</a> <a href="https://acme.test/b" rel="noopener">2</a>' })),
  '/meta-noindex': html(page({ head: '<meta name="robots" content="noindex, follow">', body: LINK })),
  '/meta-googlebot-none': html(page({ head: '<meta name="GoogleBot" content="NONE">', body: LINK })),
  '/meta-otherbot': html(page({ head: '<meta name="bingbot" content="noindex">', body: LINK })),
  '/meta-nofollow': html(page({ head: '<meta name="robots" content="nofollow">', body: LINK })),
  '/header-noindex': html(page({ body: LINK }), { 'X-Robots-Tag': 'noindex' }),
  '/header-nofollow': html(page({ body: LINK }), { 'X-Robots-Tag': 'nofollow' }),
  '/header-otherbot': html(page({ body: LINK }), { 'X-Robots-Tag': 'otherbot: noindex' }),
  '/header-googlebot': html(page({ body: LINK }), { 'X-Robots-Tag': 'googlebot: noindex, nofollow' }),
  '/header-unavailable': html(page({ body: LINK }), { 'X-Robots-Tag': 'unavailable_after: 2030-01-01, noimageindex' }),
  // two header lines: the second, meant for every crawler, is not otherbot's
  '/header-two-lines': html(page({ body: LINK }), { 'X-Robots-Tag': ['otherbot: nofollow', 'noindex'] }),
  '/header-two-otherbot-lines': html(page({ body: LINK }), { 'X-Robots-Tag': ['noarchive', 'otherbot: noindex, nofollow'] }),
  '/title': html(page({ title: '  Ten   things &amp;\n  more ', body: LINK })),
  '/edited': html(page({ body: LINK }).replace(TEXT_A, TEXT_A_EDITED)),
  '/rewritten': html(page({ body: LINK }).replace(TEXT_A, TEXT_B)),
  '/pdf': (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.7'),
};

let outlet: Outlet;
beforeAll(async () => {
  outlet = await startOutlet(routes);
  fetchOptions = { allow: parseAllowList(`outlet.test:${outlet.port}`), userAgent: 'BylineBot/1.0 (+https://byline.test)', resolve, connect };
});
afterAll(async () => {
  await outlet?.close();
});

const at = (path: string) => `http://outlet.test:${outlet.port}${path}`;

describe('checkPage: pass', () => {
  it('a reachable, indexable page with a plain link to the brand passes', async () => {
    const check = await checkPage(at('/pass'), options());
    expect(check).toMatchObject({
      result: 'pass',
      httpStatus: 200,
      finalUrl: at('/pass'),
      indexable: true,
      link: { found: true, rel: 'dofollow' },
      title: 'The article',
      problems: [],
    });
    expect(check.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(check.checkedAt)).not.toBeNaN();
  });

  it.each(['acme.test', 'www.acme.test', 'https://www.acme.test/shop', 'http://ACME.TEST/', ' acme.test. '])(
    'the brand website %j matches links with and without www.',
    async (website) => {
      for (const path of ['/pass', '/bare-link']) {
        const check = await checkPage(at(path), options({ brandWebsites: [website] }));
        expect(check.result).toBe('pass');
        expect(check.link).toEqual({ found: true, rel: 'dofollow', site: 'acme.test' });
      }
    },
  );

  it('resolves relative links against <base href>', async () => {
    const check = await checkPage(at('/base'), options());
    expect(check.result).toBe('pass');
    expect(check.link).toEqual({ found: true, rel: 'dofollow', site: 'acme.test' });
  });

  it('and without one against the page, where they are not the brand', async () => {
    const check = await checkPage(at('/relative'), options());
    expect(check.link).toEqual({ found: false, rel: null });
    expect(check.problems.map((p) => p.code)).toEqual(['link_missing']);
  });

  it('with several websites (a client’s, issue 57) a link to any one of them counts, and names it', async () => {
    const check = await checkPage(at('/pass'), options({ brandWebsites: ['https://other.test', 'acme.test'] }));
    expect(check).toMatchObject({ result: 'pass', link: { found: true, rel: 'dofollow', site: 'acme.test' }, problems: [] });
    const none = await checkPage(at('/no-link'), options({ brandWebsites: ['https://www.other.test/en', 'acme.test', 'other.test'] }));
    expect(none.problems).toEqual([{ code: 'link_missing', message: 'The page has no link to other.test or acme.test.' }]);
    // a website not looked for is not a link to the brand, however the page links to it
    expect((await checkPage(at('/pass'), options({ brandWebsites: ['other.test'] }))).result).toBe('fail');
  });

  it('looks for no link when the brand has no website', async () => {
    const check = await checkPage(at('/no-link'), options({ brandWebsites: [] }));
    expect(check).toMatchObject({ result: 'pass', link: { found: false, rel: null }, problems: [] });
  });

  it('reads the title, whitespace collapsed and entities decoded', async () => {
    expect((await checkPage(at('/title'), options())).title).toBe('Ten things & more');
  });
});

describe('checkPage: the link', () => {
  it('no link to the brand: link_missing, a failure', async () => {
    const check = await checkPage(at('/no-link'), options());
    expect(check).toMatchObject({ result: 'fail', indexable: true, link: { found: false, rel: null } });
    expect(check.problems).toEqual([{ code: 'link_missing', message: expect.stringMatching(/no link to acme\.test/) }]);
  });

  it('look-alike hosts, subdomains and other schemes are not the brand', async () => {
    const check = await checkPage(at('/lookalikes'), options());
    expect(check.link).toEqual({ found: false, rel: null });
    expect(check.problems.map((p) => p.code)).toEqual(['link_missing']);
  });

  it.each([
    ['/nofollow', 'nofollow'],
    ['/sponsored', 'sponsored'],
    ['/ugc', 'ugc'],
    ['/nofollow-sponsored', 'sponsored'],
  ])('%s when a plain link was promised: rel_mismatch, a warning', async (path, rel) => {
    for (const promisedLinkType of [null, 'dofollow'] as const) {
      const check = await checkPage(at(path), options({ promisedLinkType }));
      expect(check).toMatchObject({ result: 'warning', link: { found: true, rel } });
      expect(check.problems).toHaveLength(1);
      expect(check.problems[0].code).toBe('rel_mismatch');
      expect(check.problems[0].message).toMatch(new RegExp(`rel="${rel}".*plain \\(dofollow\\) link was promised`));
    }
  });

  it.each(['/sponsored', '/nofollow-sponsored'])('%s when a sponsored link was promised: pass', async (path) => {
    const check = await checkPage(at(path), options({ promisedLinkType: 'sponsored' }));
    expect(check).toMatchObject({ result: 'pass', link: { found: true, rel: 'sponsored' }, problems: [] });
  });

  it('a plain link where a sponsored one was promised: rel_mismatch', async () => {
    const check = await checkPage(at('/pass'), options({ promisedLinkType: 'sponsored' }));
    expect(check.result).toBe('warning');
    expect(check.problems[0]).toMatchObject({ code: 'rel_mismatch', message: expect.stringMatching(/plain \(dofollow\) link.*rel="sponsored" was promised/) });
  });

  it('a nofollow link where nofollow was promised: pass', async () => {
    expect((await checkPage(at('/nofollow'), options({ promisedLinkType: 'nofollow' }))).result).toBe('pass');
  });

  it('of several links to the brand the best counts', async () => {
    expect((await checkPage(at('/best-of-two'), options())).link).toEqual({ found: true, rel: 'dofollow', site: 'acme.test' });
  });

  it.each(['/meta-nofollow', '/header-nofollow'])('%s: a page marked nofollow makes its plain link nofollow', async (path) => {
    const check = await checkPage(at(path), options());
    expect(check).toMatchObject({ result: 'warning', indexable: true, link: { found: true, rel: 'nofollow' } });
    expect(check.problems[0]).toMatchObject({ code: 'rel_mismatch', message: expect.stringMatching(/whole page is marked nofollow/) });
  });
});

describe('checkPage: indexing', () => {
  it.each([
    ['/meta-noindex', /<meta name="robots">/],
    ['/meta-googlebot-none', /<meta name="robots">/],
    ['/header-noindex', /X-Robots-Tag header/],
    ['/header-googlebot', /X-Robots-Tag header/],
    ['/header-two-lines', /X-Robots-Tag header/],
  ])('%s: noindex, a failure', async (path, where) => {
    const check = await checkPage(at(path), options());
    expect(check).toMatchObject({ result: 'fail', indexable: false });
    const noindex = check.problems.find((p) => p.code === 'noindex');
    expect(noindex?.message).toMatch(/not to index/);
    expect(noindex?.message).toMatch(where);
  });

  it.each(['/header-otherbot', '/header-two-otherbot-lines', '/meta-otherbot', '/header-unavailable'])('%s: directives for other crawlers or of other kinds are not noindex', async (path) => {
    const check = await checkPage(at(path), options());
    expect(check).toMatchObject({ result: 'pass', indexable: true, link: { found: true, rel: 'dofollow' }, problems: [] });
  });
});

describe('checkPage: the text', () => {
  let published: string | null;
  beforeAll(async () => {
    published = (await checkPage(at('/pass'), options())).fingerprint;
  });

  it('the test texts are what they claim to be', () => {
    expect(published).not.toBeNull();
    expect(TEXT_A_EDITED).not.toBe(TEXT_A);
  });

  it('the same text: no problem', async () => {
    const check = await checkPage(at('/pass'), options({ previousFingerprint: published }));
    expect(check.fingerprint).toBe(published);
    expect(check.result).toBe('pass');
  });

  it('a few words edited: no problem', async () => {
    const check = await checkPage(at('/edited'), options({ previousFingerprint: published }));
    expect(check.result).toBe('pass');
    expect(fingerprintDistance(published ?? '', check.fingerprint ?? '')).toBeLessThanOrEqual(TEXT_CHANGED_DISTANCE);
  });

  it('another text: text_changed, a warning', async () => {
    const check = await checkPage(at('/rewritten'), options({ previousFingerprint: published }));
    expect(check.result).toBe('warning');
    expect(check.problems).toEqual([{ code: 'text_changed', message: expect.stringMatching(/changed substantially/) }]);
    expect(fingerprintDistance(published ?? '', check.fingerprint ?? '')).toBeGreaterThan(TEXT_CHANGED_DISTANCE);
  });

  it('no previous fingerprint, or one of another kind: nothing compared', async () => {
    for (const previousFingerprint of [null, undefined, '', 'not a fingerprint', 'ab'.repeat(8)]) {
      expect((await checkPage(at('/rewritten'), options({ previousFingerprint }))).problems).toEqual([]);
    }
  });
});

describe('checkPage: pages that could not be fetched', () => {
  it('reports the fetch problem as a failure instead of rejecting', async () => {
    const check = await checkPage(at('/missing'), options());
    expect(check).toMatchObject({
      result: 'fail',
      httpStatus: 404,
      finalUrl: at('/missing'),
      indexable: null,
      link: { found: false, rel: null },
      title: null,
      fingerprint: null,
    });
    expect(check.problems).toEqual([{ code: 'http_error', message: expect.stringMatching(/404/) }]);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
    [`http://outlet.test:${22}/`, 'blocked_port'],
    ['javascript:alert(1)', 'bad_url'],
    ['http://nowhere.test/', 'unreachable'],
  ] as const)('%s: %s', async (url, code) => {
    const check = await checkPage(url, options({ fetch: { ...fetchOptions, allow: parseAllowList('') } }));
    expect(check).toMatchObject({ result: 'fail', httpStatus: null, indexable: null });
    expect(check.problems.map((p) => p.code)).toEqual([code]);
  });

  it('not HTML: not_html with the status', async () => {
    const check = await checkPage(at('/pdf'), options());
    expect(check).toMatchObject({ result: 'fail', httpStatus: 200 });
    expect(check.problems.map((p) => p.code)).toEqual(['not_html']);
  });
});

/**
 * Watches the event loop with a 5 ms ticker and keeps the longest stretch between two ticks, as
 * wall time and as the CPU time the main thread used in it. The CPU time is what the test judges:
 * on a loaded machine (other test runs, browsers) the process waits for a core for whole fractions
 * of a second while holding nothing, and only work done between two ticks is work that held them.
 */
function watchLoop() {
  let lastWall = performance.now();
  let lastCpu = process.threadCpuUsage();
  let wallMs = 0;
  let cpuMs = 0;
  const tick = () => {
    const now = performance.now();
    const used = process.threadCpuUsage(lastCpu);
    wallMs = Math.max(wallMs, now - lastWall);
    cpuMs = Math.max(cpuMs, (used.user + used.system) / 1000);
    lastWall = now;
    lastCpu = process.threadCpuUsage();
  };
  const ticker = setInterval(tick, 5);
  return {
    stop() {
      tick();
      clearInterval(ticker);
      return { wallMs, cpuMs };
    },
  };
}

describe('checkPage: a large page', () => {
  it('the loop watch sees a loop held for 250 ms', async () => {
    const watch = watchLoop();
    await sleep(20);
    const start = process.threadCpuUsage();
    while (process.threadCpuUsage(start).user < 250_000) {
      // busy
    }
    await sleep(20);
    expect(watch.stop().cpuMs).toBeGreaterThanOrEqual(250);
  });

  it('checks 4 MB with a hundred thousand links without holding the event loop', async () => {
    const paragraph = (i: number) =>
      `<p>Item ${i}: <a href="https://example.test/${i}/a">one</a>, <a href="/${i}/b" rel="nofollow">two</a>, ` +
      `<a href="#${i}">three</a> and <b><a href="https://www.example.test/${i}">four</a></b>.</p>\n`;
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 4 * 1024 * 1024; i++) {
      const p = paragraph(i);
      parts.push(p);
      size += p.length;
    }
    // the brand link and the noindex at the very end: found only if the whole page was read
    const big = Buffer.from(`<!doctype html><html><head><title>Big</title></head><body>${parts.join('')}${LINK}<meta name="robots" content="noindex"></body></html>`);
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(big.length).toBeLessThan(5 * 1024 * 1024);
    routes['/big'] = html(big);

    const watch = watchLoop();
    let check;
    let held;
    try {
      check = await checkPage(at('/big'), options());
    } finally {
      held = watch.stop();
    }
    expect(check).toMatchObject({ title: 'Big', indexable: false, link: { found: true, rel: 'dofollow' } });
    expect(check.problems.map((p) => p.code)).toEqual(['noindex']);
    expect(held.cpuMs).toBeLessThan(200);
  });
});

describe('scanHtml', () => {
  it('reads a character split across two chunks of the parse', async () => {
    // "é" is two bytes in UTF-8: its first byte is the last of the first 64 KiB chunk
    const before = (filler: string) => `<html><body><p>${filler}</p><title>Caf`;
    const filler = 'x'.repeat(64 * 1024 - 1 - Buffer.byteLength(before('')));
    const body = Buffer.from(`${before(filler)}é au lait</title><a href="https://acme.test/caf%C3%A9">é</a></body></html>`);
    expect(body[64 * 1024 - 1]).toBe(0xc3);
    const facts = await scanHtml(body, 'utf-8');
    expect(facts.title).toBe('Café au lait');
    expect(facts.anchors).toEqual([{ href: 'https://acme.test/caf%C3%A9', rel: [] }]);
  });

  it('takes the article, not the navigation and scripts around it', async () => {
    const body = Buffer.from(
      `<html><head><title>T</title><script>var tracking = 1;</script></head><body><nav>Home News Sport</nav>` +
        `<article><p>${TEXT_B}</p><aside>Related: other stories</aside></article><footer>Copyright</footer></body></html>`,
    );
    const facts = await scanHtml(body, 'utf-8');
    expect(facts.text.trim()).toBe(TEXT_B);
  });
});
