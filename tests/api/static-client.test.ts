/**
 * The built client as the server serves it: hashed assets cached for a year (they never change),
 * precompressed files picked by Accept-Encoding, and every page path answered with index.html that
 * browsers must revalidate (a new deployment must reach them); API paths keep their JSON 404.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import { diskFileStore } from '../../src/server/storage/file-store';
import { stripeProvider } from '../../src/server/providers/stripe';
import { createTestDb } from '../support/db';
import type { DbHandle } from '../../src/server/db/client';
import { setClockOffsetMs } from '../../src/server/lib/clock';
import { setClockTo, setTestClock } from '../support/clock';

let app: FastifyInstance;
let handle: DbHandle;
let dir: string;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'byline-client-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT));
  handle = await createTestDb();
  const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dir });
  app = await buildApp({ db: handle.db, config, files: diskFileStore(path.join(dir, 'uploads')), clientDir: dir });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built client', () => {
  it('serves hashed assets for a year, brotli when accepted', async () => {
    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers page paths with index.html that must be revalidated, and API paths with JSON 404s', async () => {
    for (const url of ['/', '/brand/opportunities', '/admin/projects', '/no/such/page']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      // revalidated on every visit: no-cache (the page fallback) or max-age=0 (the static file)
      expect(res.headers['cache-control'], url).toMatch(/^(no-cache|public, max-age=0)$/);
    }
    const api = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found', code: 'not_found' });
    const missingAsset = await app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(missingAsset.headers['cache-control']).not.toContain('immutable');
  });

  it('[SECURITY] sends the same security headers with every kind of answer', async () => {
    const answers = {
      asset: await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } }),
      page: await app.inject({ method: 'GET', url: '/brand/opportunities' }),
      'unknown API path': await app.inject({ method: 'GET', url: '/api/no-such-thing' }),
      'signed out': await app.inject({ method: 'GET', url: '/api/opportunities' }),
      'bad JSON': await app.inject({ method: 'POST', url: '/api/login', headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, payload: '{' }),
      'cross-origin refusal': await app.inject({ method: 'POST', url: '/api/login', headers: { origin: 'https://elsewhere.example' }, payload: {} }),
      HEAD: await app.inject({ method: 'HEAD', url: '/api/terms' }),
    };
    for (const [kind, res] of Object.entries(answers)) {
      expect(res.statusCode, kind).toBeLessThan(500);
      expect(res.headers['content-security-policy'], kind).toBe(
        "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: https: http:;connect-src 'self';font-src 'self' data:;object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options'], kind).toBe('nosniff');
      expect(res.headers['x-frame-options'], kind).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy'], kind).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy'], kind).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy'], kind).toBe('same-origin');
      expect(res.headers['origin-agent-cluster'], kind).toBe('?1');
      expect(res.headers['x-dns-prefetch-control'], kind).toBe('off');
      expect(res.headers['x-download-options'], kind).toBe('noopen');
      expect(res.headers['x-permitted-cross-domain-policies'], kind).toBe('none');
      expect(res.headers['x-xss-protection'], kind).toBe('0');
      // HSTS only in production, where the portal is served over HTTPS
      expect(res.headers['strict-transport-security'], kind).toBeUndefined();
      expect(res.headers['x-powered-by'], kind).toBeUndefined();
      expect(res.headers['x-request-id'], kind).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('[SECURITY] says "Test mode: payments are simulated" on every page while the built-in checkout takes the payments', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }]) {
      const res = await app.inject({ method: 'GET', url: '/brand/opportunities', headers });
      const html = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString() : res.body;
      expect(html).toContain('<div class="test-mode-banner" data-clock-offset-ms="0">Test mode: payments are simulated</div>');
      expect(html).toContain('<div id="root">');
    }
  });

  it('names Byline’s clock in the banner once the test clock moved (issue 59), read from the database', async () => {
    const at = Date.now() + 72 * 3_600_000;
    await setClockTo(handle.db, new Date(at));
    // this process has not heard of the move: the page reads the row every instance shares
    setClockOffsetMs(0);
    try {
      const html = (await app.inject({ method: 'GET', url: '/brand/my-articles' })).body;
      const day = new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
      expect(html).toContain('Test mode: payments are simulated · Byline&#39;s clock: ');
      // the offset for the page's "due in" and "late" words (client lib/byline-time.ts), within the test's own run time
      const offset = Number(/data-clock-offset-ms="(\d+)"/.exec(html)?.[1]);
      expect(Math.abs(offset - 72 * 3_600_000)).toBeLessThan(60_000);
      expect(html).toContain(`Byline&#39;s clock: ${day}, `);
      expect(html).toContain(' UTC (moved 72 h)</div>');
    } finally {
      await setTestClock(handle.db, 0);
    }
    expect((await app.inject({ method: 'GET', url: '/brand/my-articles' })).body).toContain('<div class="test-mode-banner" data-clock-offset-ms="0">Test mode: payments are simulated</div>');
  });

  it('shows no test-mode banner when a card provider takes the payments', async () => {
    const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dir });
    const live = await buildApp({
      db: handle.db,
      config,
      files: diskFileStore(path.join(dir, 'uploads')),
      clientDir: dir,
      payments: stripeProvider({ secretKey: 'sk_test_unused', webhookSecret: 'whsec_unused' }),
    });
    try {
      const res = await live.inject({ method: 'GET', url: '/brand/opportunities' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.body).not.toContain('Test mode');
    } finally {
      await live.close();
    }
  });
});
