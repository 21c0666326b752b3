/**
 * The on-time sort's key kept on the opportunity by the database (drizzle/0043): its outlet's
 * on-time rate, -1 without one. However the outlet's rate changes (here by plain SQL, as
 * refresh_outlet_delivery writes it after a publication), however an opportunity comes to an
 * outlet (created, or moved to another by its URL), the search's order follows at once.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { opportunities } from '../../src/server/db/schema';
import type { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
const word = `Onkey${Date.now().toString(36)}`;

beforeAll(async () => {
  t = await createPaymentsTestApp();
  brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
});
afterAll(() => t.close());

const setRate = (host: string, rate: string | null) =>
  t.db.execute(sql`UPDATE outlets SET on_time_rate = ${rate}::numeric WHERE host = ${host}`);
const byOnTime = async () => {
  const res = await brand.get<{ title: string }[]>(`/api/opportunities?q=${word}&sort=on_time_desc`);
  expect(res.status).toBe(200);
  return res.body.map((o) => o.title);
};
const keyOf = async (id: string) =>
  (await t.db.select({ key: opportunities.outletOnTime }).from(opportunities).where(eq(opportunities.id, id)))[0].key;

it('follows the outlet: its rate changed, a new opportunity of it, an opportunity moved to another', async () => {
  const swift = await createOpportunity(t.db, { title: `${word} swift`, outletName: 'Swift', outletUrl: 'https://swift.example.com', maxSlots: 3 });
  const slow = await createOpportunity(t.db, { title: `${word} slow`, outletName: 'Slow', outletUrl: 'https://slow.example.com', maxSlots: 3 });
  // no record yet: both last, by id
  expect(await keyOf(swift.id)).toBe('-1.000');
  await setRate('swift.example.com', '0.900');
  await setRate('slow.example.com', '0.400');
  expect(await keyOf(swift.id)).toBe('0.900');
  expect(await byOnTime()).toEqual([`${word} swift`, `${word} slow`]);

  // the slow outlet catches up: its opportunities move up with it
  await setRate('slow.example.com', '1.000');
  expect(await byOnTime()).toEqual([`${word} slow`, `${word} swift`]);

  // a new opportunity of a rated outlet takes the outlet's rate as it is written
  const second = await createOpportunity(t.db, { title: `${word} second`, outletName: 'Swift', outletUrl: 'https://swift.example.com', maxSlots: 3 });
  expect(await keyOf(second.id)).toBe('0.900');
  // the same rate as swift's: the two by id, the greater first (the sort's tie-break)
  const tied = [swift, second].sort((a, b) => (a.id < b.id ? 1 : -1)).map((o) => o.title);
  expect(await byOnTime()).toEqual([`${word} slow`, ...tied]);

  // moved to the other outlet by its URL: both outlets' records are counted again (drizzle/0035;
  // neither has a publication here, so neither has a rate) and every key follows its outlet's
  await t.db.update(opportunities).set({ outletUrl: 'https://slow.example.com/' }).where(eq(opportunities.id, swift.id));
  expect(await keyOf(swift.id)).toBe('-1.000');
  expect(await outOfStep()).toBe(0);
  // a record given again: the outlet's opportunities, the moved one among them, follow it
  await setRate('slow.example.com', '0.700');
  expect(await keyOf(swift.id)).toBe('0.700');
  expect(await byOnTime()).toEqual([...[swift, slow].sort((a, b) => (a.id < b.id ? 1 : -1)).map((o) => o.title), `${word} second`]);
  expect(await outOfStep()).toBe(0);
});

/** Opportunities whose key is not their outlet's rate (-1 for none). */
async function outOfStep() {
  const { rows } = (await t.db.execute(sql`SELECT count(*)::int AS n FROM opportunities o LEFT JOIN outlets x ON x.id = o.outlet_id
    WHERE o.outlet_on_time <> coalesce(x.on_time_rate, -1)`)) as unknown as { rows: { n: number }[] };
  return rows[0].n;
}
