/** JSON answers over 2 KB are compressed for clients that accept it; the bytes decode to the same JSON. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity } from '../support/payments';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 20; i++) await createOpportunity(t.db, { description: `A long description number ${i} `.repeat(10) });
  cookie = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent.cookie!;
});
afterAll(() => t.close());

const get = (encoding?: string) =>
  t.app.inject({ method: 'GET', url: '/api/opportunities', headers: { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) } });

describe('JSON compression', () => {
  it('sends plain JSON to a client that accepts no encoding', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(JSON.parse(res.body)).toHaveLength(20);
  });

  it('brotli when accepted, else gzip; both decode to the same JSON', async () => {
    const plain = JSON.parse((await get()).body);
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain);
  });

  it('q-values count: "br;q=0" refuses brotli, "*;q=0" refuses everything not named', async () => {
    const admin = (await signedIn(t.app, t.db, kinds.admin)).agent.cookie!;
    const page = (encoding: string) =>
      t.app.inject({ method: 'GET', url: '/api/admin/opportunities', headers: { cookie: admin, 'accept-encoding': encoding } });
    for (const [header, expected] of [
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.9', 'br'],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
    ] as const) {
      expect((await page(header)).headers['content-encoding'], header).toBe(expected);
      expect((await get(header)).headers['content-encoding'], `browse list, ${header}`).toBe(expected);
    }
  });

  it('answers made per request (a page of a list) too: each encoding decodes to the plain JSON', async () => {
    const admin = (await signedIn(t.app, t.db, kinds.admin)).agent.cookie!;
    const page = (encoding?: string) =>
      t.app.inject({ method: 'GET', url: '/api/admin/opportunities', headers: { cookie: admin, ...(encoding ? { 'accept-encoding': encoding } : {}) } });
    const plain = await page();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body)).toHaveLength(20);
    expect(plain.body.length).toBeGreaterThan(2048);
    const br = await page('br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 2);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    const gz = await page('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('a page sent again unchanged is the same bytes; once a row changes, the bytes follow it', async () => {
    const admin = (await signedIn(t.app, t.db, kinds.admin)).agent.cookie!;
    const page = (encoding: string) =>
      t.app.inject({ method: 'GET', url: '/api/admin/opportunities', headers: { cookie: admin, 'accept-encoding': encoding } });
    const decoded = (res: Awaited<ReturnType<typeof page>>) =>
      JSON.parse(
        (res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload)).toString('utf8'),
      ) as { id: string; title: string }[];
    const first = await page('br');
    const again = await page('br');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const [newest] = decoded(first);
    await t.db.execute(sql`UPDATE opportunities SET title = 'Renamed while kept' WHERE id = ${newest.id}`);
    for (const encoding of ['br', 'gzip']) {
      const changed = decoded(await page(encoding));
      expect(changed.find((o) => o.id === newest.id)!.title).toBe('Renamed while kept');
    }
  });

  it('leaves small answers alone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie, 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body).role).toBe('brand');
  });
});
