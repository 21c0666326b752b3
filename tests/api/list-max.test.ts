/**
 * No unbounded answers (issue 61, decision 039): a list asked without paging parameters answers at
 * most LIST_MAX (1,000) items, and names the rest in `Link: <…>; rel="next"`. The brands' plain
 * browse list stays the spec's array of cards, newest first; the shortlist its items, most recently
 * saved first.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opportunities, savedOpportunities } from '../../src/server/db/schema';
import { listClaimable, toBrandOpportunityJson } from '../../src/server/modules/opportunities/service';
import { fetchAll } from '../../src/client/lib/paged-query';
import { apiUrl } from '../../src/shared/api-paths';
import { ORIGIN, type Agent } from '../support/app';
import { kinds, orgIdOf, signedIn } from '../support/factories';
import { createPaymentsTestApp, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
let brandId: string;

beforeAll(async () => {
  t = await createPaymentsTestApp();
  const signed = await signedIn(t.app, t.db, kinds.approvedBrand);
  brand = signed.agent;
  brandId = signed.user.id;
  await t.db.delete(opportunities);
  // 1,001 claimable opportunities, one a minute, the oldest first; and three the list leaves out
  // (sold out, past its deadline, published) among them
  await t.db.execute(sql`
    INSERT INTO opportunities (title, outlet_name, description, type, price_usd, max_slots, filled_slots, status, deadline_date, created_at)
    SELECT 'Listing ' || n, 'Outlet ' || (n % 7), 'A feature', ARRAY['listicle'], 100 + n, 2,
      CASE WHEN n = 1002 THEN 2 ELSE 0 END,
      CASE WHEN n = 1002 THEN 'full' WHEN n = 1004 THEN 'published' ELSE 'available' END,
      CASE WHEN n = 1003 THEN now() - interval '3 days' ELSE NULL END,
      timestamptz '2026-01-01T00:00:00Z' + make_interval(mins => n)
    FROM generate_series(1, 1004) n`);
});
afterAll(() => t.close());

const nextOf = (res: { headers: Record<string, unknown> }) => {
  const link = res.headers.link;
  const m = typeof link === 'string' ? /^<([^>]+)>; rel="next"$/.exec(link) : null;
  return m ? m[1] : undefined;
};

describe('the plain browse list', () => {
  it('answers the newest 1,000 claimable opportunities; its Link leads to the 1,001st', async () => {
    const first = await brand.get<{ id: string; title: string }[]>('/api/opportunities');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1000);
    expect(first.body[0].title).toBe('Listing 1001');
    expect(first.body[999].title).toBe('Listing 2');
    expect(first.body.some((o) => o.title === 'Listing 1')).toBe(false);

    const next = nextOf(first);
    expect(next).toMatch(/^\/api\/opportunities\?after=[\w-]+$/);
    const second = await brand.get<{ title: string }[]>(next!);
    expect(second.status).toBe(200);
    expect(second.body.map((o) => o.title)).toEqual(['Listing 1']);
    expect(second.headers.link).toBeUndefined();

    // the two pages together are the spec's whole list, card for card
    const whole = (await listClaimable(t.db)).map(toBrandOpportunityJson);
    expect(JSON.parse(`[${first.text.slice(1, -1)},${second.text.slice(1, -1)}]`)).toEqual(JSON.parse(JSON.stringify(whole)));
  });

  it('refuses a next page mixed with a search, or a link made up', async () => {
    const first = await brand.get('/api/opportunities');
    const after = new URL(nextOf(first)!, 'http://x').searchParams.get('after')!;
    const mixed = await brand.get(`/api/opportunities?after=${after}&sort=price_asc`);
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.after).toMatch(/takes no other parameter/);
    const madeUp = await brand.get('/api/opportunities?after=bm90LWEtY3Vyc29y');
    expect(madeUp.status).toBe(400);
    expect(madeUp.body.message).toMatch(/no longer valid/);
  });
});

describe('the shortlist', () => {
  it('answers the 1,000 most recently saved; its Link leads to the first one saved', async () => {
    const organisationId = await orgIdOf(t.db, brandId);
    await t.db.execute(sql`
      INSERT INTO ${savedOpportunities} (brand_id, organisation_id, opportunity_id, created_at)
      SELECT ${brandId}::uuid, ${organisationId}::uuid, o.id,
        timestamptz '2026-02-01T00:00:00Z' + make_interval(secs => row_number() OVER (ORDER BY o.created_at))
      FROM ${opportunities} o WHERE o.title <> 'Listing 1004'`);
    const first = await brand.get<{ title: string; saved: boolean; soldOut: boolean }[]>('/api/brand/saved');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1000);
    // saved in the order they were made: the most recent save (Listing 1003, past its deadline) first
    expect(first.body[0]).toMatchObject({ title: 'Listing 1003', saved: true, soldOut: true });
    expect(first.body.some((o) => o.title === 'Listing 3')).toBe(false);
    const second = await brand.get<{ title: string }[]>(nextOf(first)!);
    expect(second.status).toBe(200);
    expect(second.body.map((o) => o.title)).toEqual(['Listing 3', 'Listing 2', 'Listing 1']);
    expect(second.headers.link).toBeUndefined();
  });

  it('is read whole by the client, page after page (the marks on every card)', async () => {
    // the client's own reader, its requests answered by this server as the brand's browser
    const realFetch = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (async (url: string, init?: RequestInit) => {
      asked.push(url);
      const res = await t.app.inject({ method: (init?.method ?? 'GET') as 'GET', url, headers: { cookie: brand.cookie ?? '', origin: ORIGIN } });
      return new Response(res.payload, { status: res.statusCode, headers: res.headers as Record<string, string> });
    }) as typeof fetch;
    try {
      const all = await fetchAll<{ title: string }>(apiUrl('/api/brand/saved'));
      expect(all).toHaveLength(1003);
      expect(all[0].title).toBe('Listing 1003');
      expect(all.slice(-3).map((o) => o.title)).toEqual(['Listing 3', 'Listing 2', 'Listing 1']);
      expect(asked).toHaveLength(2);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe('the orders list', () => {
  it('answers the newest 1,000 paid orders; its Link leads to the rest, kept to the client filter', async () => {
    const org = await orgIdOf(t.db, brandId);
    // 1,001 paid orders of one line each, one a minute, the oldest first
    await t.db.execute(sql`
      WITH o AS (
        INSERT INTO orders (id, brand_id, organisation_id, amount, status, expires_at, created_at)
        SELECT gen_random_uuid(), ${brandId}::uuid, ${org}::uuid, 100 + n, 'completed', now(), timestamptz '2026-02-01T00:00:00Z' + make_interval(mins => n)
        FROM generate_series(1, 1001) n
        RETURNING id, amount
      )
      INSERT INTO payments (brand_id, organisation_id, opportunity_id, order_id, stripe_payment_id, provider_session_id, amount)
      SELECT ${brandId}::uuid, ${org}::uuid, (SELECT id FROM opportunities LIMIT 1), o.id, 'pi_list_' || o.id, 'cs_list_' || o.id, o.amount
      FROM o`);
    const first = await brand.get<{ id: string; totalUsd: string; lineCount: number }[]>('/api/brand/orders');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1000);
    expect(first.body[0].totalUsd).toBe('1101.00');
    expect(first.body[999].totalUsd).toBe('102.00');
    expect(first.body.every((o) => o.lineCount === 1)).toBe(true);
    const next = nextOf(first);
    expect(next).toMatch(/^\/api\/brand\/orders\?after=[\w-]+$/);
    const second = await brand.get<{ totalUsd: string }[]>(next!);
    expect(second.status).toBe(200);
    expect(second.body.map((o) => o.totalUsd)).toEqual(['101.00']);
    expect(second.headers.link).toBeUndefined();
    // a page link that was not made by us is refused, and changes nothing
    const bad = await brand.get('/api/brand/orders?after=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('This page link is no longer valid; reload the list from the start');
  });
});
