/**
 * Two app instances on one PostgreSQL database, behind a round-robin proxy on loopback, each with
 * its own DATA_DIR and both on one bucket (s3rver on loopback, tests/support/s3.ts): a session made
 * on one works on the other, a checkout completed through both at once counts once, the 90-day
 * sweep run by both refunds once, and a file uploaded through one is served by the other. Then two instances with the Stripe provider (pointed at the Stripe stand-in): the
 * same signed checkout.session.completed delivered to both at once counts once. PostgreSQL only (an
 * embedded PGlite database belongs to one process).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import { openPostgres, type DbHandle } from '../../src/server/db/client';
import { opportunities, paymentRefunds, payments, placements, processedWebhookEvents, users } from '../../src/server/db/schema';
import { grantUnansweredCancellations } from '../../src/server/modules/payments/cancel';
import { runDisputeDeadlines } from '../../src/server/modules/disputes/service';
import { refundOverduePayments } from '../../src/server/modules/payments/refunds';
import { declinePlacement, refundUnswapped } from '../../src/server/modules/payments/swap';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { stripeProvider } from '../../src/server/providers/stripe';
import { hashPassword } from '../../src/server/lib/password';
import { diskFileStore } from '../../src/server/storage/file-store';
import { fileStoreFor } from '../../src/server/storage/from-config';
import { createTestDb, dbKind } from '../support/db';
import { createOpportunity, checkoutsOf, quickBrands } from '../support/payments';
import { startS3, type S3StandIn } from '../support/s3';
import { startStripeStandIn } from '../support/stripe-stand-in';
import { refundedSql } from '../../src/server/modules/ledger/ledger';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let first: DbHandle;
let second: DbHandle;
let apps: FastifyInstance[] = [];
let proxy: http.Server;
let base = '';
let dataDirs: string[] = [];
let s3: S3StandIn;
const served: number[] = [];

describe.skipIf(dbKind !== 'postgres')('two app instances behind a round-robin proxy', () => {
  beforeAll(async () => {
    first = await createTestDb();
    // a second pool on the same database: the test's own database URL
    const dbName = (
      (await first.db.execute(sql`SELECT current_database() AS d`)) as unknown as { rows: { d: string }[] }
    ).rows[0].d;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${dbName}`;
    second = openPostgres(url.toString(), 10);
    s3 = await startS3('byline-two');
    dataDirs = [first, second].map(() => mkdtempSync(path.join(os.tmpdir(), 'byline-two-')));
    apps = await Promise.all(
      [first, second].map(async (h, i) => {
        // one machine each: its own DATA_DIR, its own S3 client, the one bucket
        const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDirs[i], ...s3.env });
        const app = await buildApp({ db: h.db, config, files: await fileStoreFor(config), payments: testCheckoutProvider(h.db) });
        await app.listen({ port: 0, host: '127.0.0.1' });
        return app;
      }),
    );
    const ports = apps.map((a) => (a.server.address() as AddressInfo).port);
    let next = 0;
    proxy = http.createServer((req, res) => {
      const i = next++ % ports.length;
      served.push(i);
      const upstream = http.request(
        { host: '127.0.0.1', port: ports[i], method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => proxy?.close(r));
    for (const app of apps) await app.close();
    await second?.close();
    await first?.close();
    await s3?.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  class Browser {
    cookie = '';
    async req(method: string, url: string, body?: unknown, raw?: { data: Buffer; type: string }) {
      const res = await fetch(base + url, {
        method,
        headers: {
          ...(method !== 'GET' ? { origin: base } : {}),
          ...(this.cookie ? { cookie: this.cookie } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : raw ? { 'content-type': raw.type } : {}),
        },
        body: raw ? new Uint8Array(raw.data) : body === undefined ? undefined : JSON.stringify(body),
      });
      const set = res.headers.get('set-cookie');
      if (set?.startsWith('byline_session=')) this.cookie = set.split(';')[0];
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        text,
        body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
      };
    }
  }

  it('the proxy alternates between the instances', async () => {
    const b = new Browser();
    served.length = 0;
    for (let i = 0; i < 4; i++) await b.req('GET', '/api/user');
    expect(served).toEqual([0, 1, 0, 1]);
  });

  it('a session made on one instance works on the other, and signing out on one ends it on both', async () => {
    const b = new Browser();
    served.length = 0;
    const reg = await b.req('POST', '/api/register', {
      email: `two-${Date.now()}@example.com`,
      password: 'a-long-enough-password-1',
    });
    expect(reg.status).toBe(201);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await b.req('GET', '/api/user')).status);
    expect(seen).toEqual([200, 200, 200, 200]);
    expect(new Set(served)).toEqual(new Set([0, 1]));
    expect((await b.req('POST', '/api/logout')).status).toBe(200);
    const stolen = new Browser();
    stolen.cookie = reg.headers.get('set-cookie')!.split(';')[0];
    expect([(await stolen.req('GET', '/api/user')).status, (await stolen.req('GET', '/api/user')).status]).toEqual([
      401, 401,
    ]);
  });

  it('a checkout completed through both instances at once counts once', async () => {
    const b = new Browser();
    await b.req('POST', '/api/register', {
      email: `two-pay-${Date.now()}@example.com`,
      password: 'a-long-enough-password-1',
    });
    await b.req('PATCH', '/api/user/profile', {
      name: 'Two',
      brandName: 'Two Inc',
      website: 'https://two.example.com',
    });
    const me = (await b.req('GET', '/api/user')).body;
    await first.db.update(users).set({ approved: true }).where(eq(users.id, me.id));
    const opp = await createOpportunity(first.db, { maxSlots: 5, priceUsd: '300.00' });
    const co = await b.req('POST', '/api/payments/checkout', { opportunityId: opp.id });
    expect(co.status).toBe(200);
    const sessionId = String(co.body.url).split('/').pop();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => b.req('POST', `/api/payments/checkout/${sessionId}/pay`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.paymentId)).size).toBe(1);
    const rows = await first.db.select().from(payments).where(eq(payments.opportunityId, opp.id));
    expect(rows).toHaveLength(1);
    const wallet = await b.req('GET', '/api/brand/payments');
    expect(wallet.body.filter((p: { id: string }) => p.id === rows[0].id)).toHaveLength(1);

    // the 90-day sweep, run by both instances at once, refunds it once
    const later = new Date(Date.now() + 91 * 86_400_000);
    const [a, c] = await Promise.all([
      refundOverduePayments(first.db, testCheckoutProvider(first.db), later),
      refundOverduePayments(second.db, testCheckoutProvider(second.db), later),
    ]);
    expect([...a, ...c].filter((id) => id === rows[0].id)).toHaveLength(1);
    const [after] = await first.db.select().from(payments).where(eq(payments.id, rows[0].id));
    expect(after.status).toBe('refunded');
  });

  it('the swap deadline of a declined placement refunds it once, both instances sweeping at once', async () => {
    const brand = (await quickBrands(apps[0], first.db, 1))[0];
    const opp = await createOpportunity(first.db, { maxSlots: 2 });
    expect((await brand.agent.put(`/api/cart/lines/${opp.id}`)).status).toBe(200);
    const co = await brand.agent.post('/api/cart/checkout', {});
    expect(co.status).toBe(200);
    const sessionId = String(co.body.url).split('/').pop();
    expect((await brand.agent.post(`/api/payments/checkout/${sessionId}/pay`)).status).toBe(200);
    const [row] = await first.db.select().from(payments).where(eq(payments.orderId, co.body.orderId));
    await declinePlacement(first.db, testCheckoutProvider(first.db), row.id, 'The outlet closed', { type: 'system' });
    const later = new Date(Date.now() + 8 * 86_400_000);
    const [a, c] = await Promise.all([
      refundUnswapped(first.db, testCheckoutProvider(first.db), later),
      refundUnswapped(second.db, testCheckoutProvider(second.db), later),
    ]);
    expect([...a, ...c]).toEqual([row.id]);
    const [after] = await second.db.select().from(payments).where(eq(payments.id, row.id));
    expect(after).toMatchObject({ status: 'refunded', refundReason: 'declined' });
  });

  it('the fair terms’ deadlines (issue 47) move once, both instances sweeping at once with the clock past them', async () => {
    const brand = (await quickBrands(apps[0], first.db, 1))[0];
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const opp = await createOpportunity(first.db, { maxSlots: 2, priceUsd: '200.00' });
      const co = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
      expect(co.status).toBe(200);
      const paid = await brand.agent.post(`/api/payments/checkout/${String(co.body.url).split('/').pop()}/pay`);
      expect(paid.status).toBe(200);
      ids.push(paid.body.paymentId);
    }
    const [cancelled, disputed] = ids;
    // a cancellation after writing started, and a dispute of a draft, both left unanswered
    await first.db.update(placements).set({ writingStartedAt: new Date() }).where(eq(placements.id, cancelled));
    expect((await brand.agent.post(`/api/brand/projects/${cancelled}/cancel`, { reason: 'No answer' })).status).toBe(202);
    await first.db.update(placements).set({ draftDocumentUrl: 'https://docs.example.com/d', draftReviewStatus: 'pending_brand_review' }).where(eq(placements.id, disputed));
    expect((await brand.agent.post(`/api/brand/projects/${disputed}/disputes`, { reason: 'not_as_briefed', outcome: 'refund_partial', amountUsd: '80.00', text: 'Half of it' })).status).toBe(201);
    const later = new Date(Date.now() + 3 * 86_400_000 + 60_000);
    const sweep = (h: DbHandle) => Promise.all([grantUnansweredCancellations(h.db, testCheckoutProvider(h.db), later), runDisputeDeadlines(h.db, testCheckoutProvider(h.db), later)]);
    const [a, b] = await Promise.all([sweep(first), sweep(second)]);
    expect([...a[0], ...b[0]]).toHaveLength(1);
    expect([...a[1], ...b[1]]).toHaveLength(1);
    const rows = await second.db.select({ id: payments.id, status: payments.status, refunded: refundedSql(payments.id) }).from(payments).where(inArray(payments.id, ids));
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.status, r.refunded]]))).toEqual({ [cancelled]: ['refunded', '200.00'], [disputed]: ['paid', '80.00'] });
    expect(await second.db.$count(paymentRefunds, eq(paymentRefunds.paymentId, disputed))).toBe(1);
  });

  it('an upload made through one instance is served by the other', async () => {
    const b = new Browser();
    await b.req('POST', '/api/register', {
      email: `two-up-${Date.now()}@example.com`,
      password: 'a-long-enough-password-1',
    });
    const boundary = 'twoinstances';
    const data = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await b.req('POST', '/api/upload/avatar', undefined, {
      data,
      type: `multipart/form-data; boundary=${boundary}`,
    });
    expect(up.status).toBe(200);
    const got = await Promise.all([fetch(base + up.body.url), fetch(base + up.body.url)]);
    expect(got.map((r) => r.status)).toEqual([200, 200]);
    for (const r of got) expect(Buffer.from(await r.arrayBuffer()).equals(PNG)).toBe(true);
    const name = up.body.url.split('/').pop();
    expect(s3.calls.filter((c) => c.endsWith(name))).toEqual([`PUT public/${name}`, `GET public/${name}`, `GET public/${name}`]);
    // in the bucket only: neither machine's disk has it
    for (const dir of dataDirs) expect(existsSync(path.join(dir, 'uploads', name))).toBe(false);
    expect(s3.unexpected).toEqual([]);
  });

  it('a draft uploaded through one instance is attached and downloaded through the other, privately', async () => {
    const [adminRow] = await first.db
      .insert(users)
      .values({ email: `two-admin-${Date.now()}@example.com`, password: await hashPassword('a-long-enough-password-1'), role: 'admin', name: 'Two Admin' })
      .returning();
    const signIn = async (email: string) => {
      const b = new Browser();
      expect((await b.req('POST', '/api/login', { email, password: 'a-long-enough-password-1' })).status).toBe(200);
      return b;
    };
    const admin = await signIn(adminRow.email);
    const boundary = 'twodraft';
    const data = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      PDF,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    served.length = 0;
    const up = await admin.req('POST', '/api/upload/document', undefined, { data, type: `multipart/form-data; boundary=${boundary}` });
    expect(up.status).toBe(200);
    // the proxy alternates: the download is served by the instance that did not store it
    const got = await admin.req('GET', up.body.path);
    expect(got.status).toBe(200);
    expect(got.headers.get('cache-control')).toBe('private, no-store');
    expect(got.text).toBe(PDF.toString());
    expect(served[1]).toBe(1 - served[0]);
    expect((await new Browser().req('GET', up.body.path)).status).toBe(401);
    const name = up.body.path.split('/').pop();
    expect(s3.calls.filter((c) => c.endsWith(name))).toEqual([`PUT private/${name}`, `GET private/${name}`]);
    expect(s3.unexpected).toEqual([]);
  });
  describe('with the Stripe provider on both instances', () => {
    const SECRET = 'whsec_test_two_instances';
    const signer = new Stripe('sk_test_signer');
    let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
    let stripeApps: FastifyInstance[] = [];
    let ports: number[] = [];
    let stripeDir = '';

    beforeAll(async () => {
      stripe = await startStripeStandIn();
      stripeDir = mkdtempSync(path.join(os.tmpdir(), 'byline-two-stripe-'));
      const config = configSchema.parse({
        NODE_ENV: 'test',
        DATA_DIR: stripeDir,
        PUBLIC_URL: 'https://byline.example.com',
      });
      const files = diskFileStore(path.join(stripeDir, 'uploads'));
      stripeApps = await Promise.all(
        [first, second].map(async (h) => {
          const provider = stripeProvider({
            secretKey: 'sk_test_byline',
            webhookSecret: SECRET,
            host: '127.0.0.1',
            port: stripe.port,
            protocol: 'http',
          });
          const app = await buildApp({ db: h.db, config, files, payments: provider });
          await app.listen({ port: 0, host: '127.0.0.1' });
          return app;
        }),
      );
      ports = stripeApps.map((a) => (a.server.address() as AddressInfo).port);
    });

    afterAll(async () => {
      for (const app of stripeApps) await app.close();
      await stripe?.close();
      if (stripeDir) rmSync(stripeDir, { recursive: true, force: true });
    });

    let eventSeq = 0;
    function signedCompleted(sessionId: string) {
      const payload = JSON.stringify({
        id: `evt_two_${Date.now()}_${++eventSeq}`,
        object: 'event',
        type: 'checkout.session.completed',
        data: { object: { id: sessionId, object: 'checkout.session' } },
      });
      return { payload, header: signer.webhooks.generateTestHeaderString({ payload, secret: SECRET }) };
    }

    /** A real HTTP delivery to one instance (not through the proxy: each instance gets its copy). */
    async function deliver(instance: number, event: { payload: string; header: string }) {
      const res = await fetch(`http://127.0.0.1:${ports[instance]}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.header },
        body: event.payload,
      });
      await res.text();
      return res.status;
    }

    async function paidCheckout(maxSlots: number) {
      const opp = await createOpportunity(first.db, { maxSlots, priceUsd: '410.25' });
      const [brand] = await quickBrands(stripeApps[0], first.db, 1);
      const co = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
      expect(co.status).toBe(200);
      const [hold] = await checkoutsOf(first.db, opp.id);
      const sessionId = hold.providerSessionId!;
      stripe.pay(sessionId);
      return { opp, brand, hold, sessionId };
    }

    async function expectCountedOnce(opp: { id: string }, hold: { id: string }, brandId: string, eventIds: string[]) {
      const rows = await first.db.select().from(payments).where(eq(payments.opportunityId, opp.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: hold.id, brandId, amount: '410.25', status: 'paid' });
      const [o] = await first.db.select().from(opportunities).where(eq(opportunities.id, opp.id));
      expect(o.filledSlots).toBe(1);
      for (const id of eventIds) {
        expect(
          await first.db.select().from(processedWebhookEvents).where(eq(processedWebhookEvents.id, id)),
        ).toHaveLength(1);
      }
    }

    it('the same signed checkout.session.completed delivered to both instances at once counts once', async () => {
      const { opp, brand, hold, sessionId } = await paidCheckout(3);
      const event = signedCompleted(sessionId);
      const statuses = await Promise.all([deliver(0, event), deliver(1, event)]);
      expect(statuses).toEqual([200, 200]);
      await expectCountedOnce(opp, hold, brand.user.id, [JSON.parse(event.payload).id]);
      expect(stripe.unexpected).toEqual([]);
    });

    it('10 deliveries interleaved across both instances (same event, and fresh event ids) count once', async () => {
      const { opp, brand, hold, sessionId } = await paidCheckout(3);
      const event = signedCompleted(sessionId);
      const other = signedCompleted(sessionId); // Stripe may also send a second event for the same session
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => deliver(i % 2, i % 5 === 4 ? other : event)),
      );
      expect(statuses).toEqual(Array(10).fill(200));
      await expectCountedOnce(opp, hold, brand.user.id, [JSON.parse(event.payload).id, JSON.parse(other.payload).id]);
      const wallet = await brand.agent.get('/api/brand/payments');
      expect(wallet.body.filter((p: { id: string }) => p.id === hold.id)).toHaveLength(1);
      expect(stripe.unexpected).toEqual([]);
    });
  });
});
