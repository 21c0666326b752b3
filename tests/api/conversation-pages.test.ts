/**
 * The first pages of a placement (issue 19), GET …/messages and GET …/timeline, answer JSON built by
 * the database, with the caller's ownership of the payment checked by the same statement. Each item
 * must be exactly what the server's TypeScript mapping gave for the same rows (same keys in the same
 * order, same values: awkward text, author names with and without names, attachments whole or not,
 * microsecond timestamps, jsonb details); another brand's payment is still the 404 of a missing one,
 * an empty conversation or timeline `[]`, and the pages still follow the Link header. Each page is
 * read from the database every time (decision 029): a change made by plain SQL, as another server
 * would, shows in the very next answer.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages';
import type { TimelineEntry } from '../../src/shared/timeline';
import { placementEvents, placementMessages, users } from '../../src/server/db/schema';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { purchase } from '../support/content';
import { createUser, kinds, signedIn } from '../support/factories';

let t: TestApp;
type SignedIn = Awaited<ReturnType<typeof signedIn>>;
let admin: SignedIn;
let owner: SignedIn;
let stranger: SignedIn;

const AWKWARD = 'Say "hi" \\ to\nthe 🚀 crew — ünïcödé\t<script>&amp;\u2028\u0001';
const NOT_FOUND = { message: 'Payment not found', code: 'payment_not_found' };
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner, stranger] = await Promise.all([
    signedIn(t.app, t.db, kinds.admin),
    signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: `Acme ${AWKWARD}` }),
    signedIn(t.app, t.db, kinds.approvedBrand),
  ]);
});
afterAll(() => t?.close());

const messagesUrl = (side: 'brand' | 'admin', id: string, query = '') => `/api/${side}/projects/${id}/messages${query}`;
const timelineUrl = (side: 'brand' | 'admin', id: string, query = '') => `/api/${side}/projects/${id}/timeline${query}`;
const nextOf = (link: unknown) => (typeof link === 'string' ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined);

/** Every page of a list from `url` on, following Link; the items as sent (key order kept). */
async function allPages<T>(agent: Agent, url: string) {
  const items: T[] = [];
  const pages: number[] = [];
  for (let next: string | undefined = url; next; ) {
    const res = await agent.get<T[]>(next);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    items.push(...(JSON.parse(res.text) as T[]));
    pages.push(res.body.length);
    next = nextOf(res.headers.link);
  }
  return { items, pages };
}

/**
 * The list read by the brand and by the team, whole and in pages of each size in `queries`: every
 * reading is `expected`, with the same keys in the same order and the same values.
 */
async function expectEveryPagingToBe(expected: unknown[], urlOf: (side: 'brand' | 'admin', query: string) => string, queries: string[]) {
  for (const [agent, side] of [
    [owner.agent, 'brand'],
    [admin.agent, 'admin'],
  ] as const) {
    for (const query of queries) {
      const { items } = await allPages<unknown>(agent, urlOf(side, query));
      expect(items.map((i) => JSON.stringify(i))).toEqual(expected.map((i) => JSON.stringify(i)));
    }
  }
}

/** The conversation as the server's TypeScript mapping answered it (toMessage over a Drizzle select), newest first. */
async function messagesAsMapped(paymentId: string): Promise<Message[]> {
  const rows = await t.db
    .select({
      row: placementMessages,
      authorName: sql<string>`CASE WHEN ${placementMessages.side} = 'brand'
        THEN COALESCE(${users.brandName}, ${users.name}, ${users.email})
        ELSE COALESCE(${users.name}, 'Editorial team') END`,
    })
    .from(placementMessages)
    .innerJoin(users, eq(users.id, placementMessages.authorId))
    .where(eq(placementMessages.placementId, paymentId))
    .orderBy(desc(placementMessages.createdAt), desc(placementMessages.id));
  return rows.map(({ row: m, authorName }) => ({
    id: m.id,
    side: m.side,
    authorName,
    text: m.text,
    attachment:
      m.attachmentFile && m.attachmentName && m.attachmentType && m.attachmentSize !== null
        ? { name: m.attachmentName, contentType: m.attachmentType, size: m.attachmentSize }
        : null,
    createdAt: m.createdAt.toISOString(),
  }));
}

/** The timeline as the server's TypeScript mapping answered it, oldest first. */
async function timelineAsMapped(paymentId: string): Promise<TimelineEntry[]> {
  const rows = await t.db.select().from(placementEvents).where(eq(placementEvents.placementId, paymentId)).orderBy(asc(placementEvents.id));
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind,
    actor: { type: r.actorType, name: r.actorName },
    at: r.at.toISOString(),
    details: r.details,
  }));
}

type MessageSeed = {
  side: 'brand' | 'admin';
  authorId: string;
  text: string;
  at: string;
  attachment?: [string | null, string | null, string | null, number | null];
};
async function insertMessages(paymentId: string, seeds: MessageSeed[]) {
  for (const m of seeds) {
    const [file, name, type, size] = m.attachment ?? [null, null, null, null];
    await t.db.insert(placementMessages).values({
      placementId: paymentId,
      side: m.side,
      authorId: m.authorId,
      text: m.text,
      attachmentFile: file,
      attachmentName: name,
      attachmentType: type,
      attachmentSize: size,
      createdAt: sql`${m.at}::timestamptz`,
    });
  }
}

describe('GET …/messages', () => {
  it('answers each message exactly as the TypeScript mapping did: names, attachments, awkward text, microseconds', async () => {
    const p = await purchase(t.db, owner.user.id);
    const [unnamedAdmin, plainBrand, bareBrand] = await Promise.all([
      createUser(t.db, { ...kinds.admin, name: null }),
      createUser(t.db, { ...kinds.approvedBrand, brandName: null, name: `Zoë ${AWKWARD}` }),
      createUser(t.db, { ...kinds.approvedBrand, brandName: null, name: null }),
    ]);
    await insertMessages(p.id, [
      { side: 'brand', authorId: owner.user.id, text: AWKWARD, at: '2026-01-02 03:04:05.678999+00' },
      { side: 'admin', authorId: admin.user.id, text: 'with a file', at: '2026-01-02 03:04:05.999999+00', attachment: ['msg-a.bin', `draft ${AWKWARD}.pdf`, 'application/pdf', 123456] },
      { side: 'admin', authorId: unnamedAdmin.id, text: 'from the team', at: '2026-01-02 03:04:06.0005+00' },
      { side: 'brand', authorId: plainBrand.id, text: '', at: '2026-01-02 03:04:06.9996+00', attachment: ['msg-b.bin', 'shot.png', 'image/png', 0] },
      { side: 'brand', authorId: bareBrand.id, text: 'no names at all', at: '2026-02-03 04:05:06+00' },
      // an attachment missing a part is none (as before)
      { side: 'admin', authorId: admin.user.id, text: 'no size', at: '2026-02-03 04:05:07.5+00', attachment: ['msg-c.bin', 'c.pdf', 'application/pdf', null] },
      { side: 'brand', authorId: owner.user.id, text: 'empty name', at: '2026-02-03 04:05:08+00', attachment: ['msg-d.bin', '', 'application/pdf', 10] },
      { side: 'brand', authorId: owner.user.id, text: 'pre-epoch', at: '1969-12-31 23:59:59.123456+00' },
    ]);
    const expected = await messagesAsMapped(p.id);
    expect(expected).toHaveLength(8);
    await expectEveryPagingToBe(expected, (side, query) => messagesUrl(side, p.id, query), ['', '?limit=3', '?limit=1']);
  });

  it('an empty conversation is 200 [] for both sides, without a Link', async () => {
    const p = await purchase(t.db, owner.user.id);
    for (const res of [await owner.agent.get(messagesUrl('brand', p.id)), await admin.agent.get(messagesUrl('admin', p.id, '?limit=1'))]) {
      expect(res.status).toBe(200);
      expect(res.text).toBe('[]');
      expect(res.headers.link).toBeUndefined();
    }
  });

  it('another brand’s payment is the 404 of a missing one, on every page; a bad limit or cursor is still a 400 first', async () => {
    const p = await purchase(t.db, owner.user.id);
    const empty = await purchase(t.db, owner.user.id);
    await insertMessages(
      p.id,
      [1, 2, 3].map((i) => ({ side: 'brand' as const, authorId: owner.user.id, text: `m${i}`, at: `2026-03-0${i} 10:00:00+00` })),
    );
    const first = await owner.agent.get(messagesUrl('brand', p.id, '?limit=1'));
    const next = nextOf(first.headers.link)!;
    const cursor = new URL(next, 'http://x').searchParams.get('cursor')!;
    for (const id of [p.id, empty.id, MISSING, 'not-a-uuid']) {
      for (const query of ['', '?limit=1', `?limit=1&cursor=${cursor}`]) {
        const res = await stranger.agent.get(messagesUrl('brand', id, query));
        expect(res.status, `${id} ${query}`).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      // an id that is no id at all is refused by the route first, as a missing payment
      const refused = id === 'not-a-uuid' ? 404 : 400;
      expect((await stranger.agent.get(messagesUrl('brand', id, '?limit=0'))).status).toBe(refused);
      expect((await stranger.agent.get(messagesUrl('brand', id, '?cursor=nonsense'))).status).toBe(refused);
    }
    for (const id of [MISSING, 'not-a-uuid']) {
      const res = await admin.agent.get(messagesUrl('admin', id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    // a cursor of a ranked list (valid, but not this list's): the payment is judged first, as before
    const ranked = Buffer.from(JSON.stringify(['2026-03-01T10:00:00.000000Z', MISSING, 1])).toString('base64url');
    expect((await stranger.agent.get(messagesUrl('brand', p.id, `?cursor=${ranked}`))).status).toBe(404);
    const refused = await owner.agent.get(messagesUrl('brand', p.id, `?cursor=${ranked}`));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('This page link is no longer valid; reload the list from the start');
  });

  it('page 2 via the Link header gives the next (older) messages, none repeated, ties at one instant included', async () => {
    const p = await purchase(t.db, owner.user.id);
    await insertMessages(p.id, [
      ...[1, 2, 3, 4, 5].map((i) => ({ side: 'brand' as const, authorId: owner.user.id, text: `same instant ${i}`, at: '2026-04-01 10:00:00.123456+00' })),
      ...[1, 2].map((i) => ({ side: 'admin' as const, authorId: admin.user.id, text: `later ${i}`, at: `2026-04-01 11:00:0${i}+00` })),
    ]);
    const expected = (await messagesAsMapped(p.id)).map((m) => m.id);
    const first = await owner.agent.get<Message[]>(messagesUrl('brand', p.id, '?limit=3'));
    expect(first.body.map((m) => m.id)).toEqual(expected.slice(0, 3));
    const second = await owner.agent.get<Message[]>(nextOf(first.headers.link)!);
    expect(second.status).toBe(200);
    expect(second.body.map((m) => m.id)).toEqual(expected.slice(3, 6));
    const { items, pages } = await allPages<Message>(admin.agent, messagesUrl('admin', p.id, '?limit=2'));
    expect(pages).toEqual([2, 2, 2, 1]);
    expect(items.map((m) => m.id)).toEqual(expected);
    expect(new Set(items.map((m) => m.id)).size).toBe(7);
  });

  it('the message a POST answers is the one the page lists', async () => {
    const p = await purchase(t.db, owner.user.id);
    const first = (await owner.agent.post(messagesUrl('brand', p.id), { text: AWKWARD })).body as Message;
    // PGlite's clock ticks in milliseconds: two messages in one tick would tie on their time
    await new Promise((r) => setTimeout(r, 2));
    const posted = [first, (await admin.agent.post(messagesUrl('admin', p.id), { text: 'reply' })).body as Message];
    const listed = JSON.parse((await owner.agent.get(messagesUrl('brand', p.id))).text) as Message[];
    expect(listed.map((m) => JSON.stringify(m))).toEqual(posted.reverse().map((m) => JSON.stringify(m)));
  });
  it('an open conversation asked again shows at once a new message, a renamed author and a payment handed to another brand', async () => {
    const p = await purchase(t.db, owner.user.id);
    const team = await createUser(t.db, { ...kinds.admin, name: 'Dana' });
    await insertMessages(p.id, [
      { side: 'brand', authorId: owner.user.id, text: 'hello', at: '2026-05-01 10:00:00+00' },
      { side: 'admin', authorId: team.id, text: 'welcome', at: '2026-05-01 11:00:00+00' },
    ]);
    const url = messagesUrl('brand', p.id);
    const texts = async (agent: Agent = owner.agent) => {
      const res = await agent.get<Message[]>(url);
      expect(res.status, res.text).toBe(200);
      return res.body.map((m) => `${m.authorName}: ${m.text}`);
    };
    expect(await texts()).toEqual(['Dana: welcome', `Acme ${AWKWARD}: hello`]);
    expect(await texts()).toEqual(['Dana: welcome', `Acme ${AWKWARD}: hello`]);

    // changed by plain SQL, as another server would: each shows in the next answer
    await t.db.update(users).set({ name: 'Dana R.' }).where(eq(users.id, team.id));
    expect(await texts()).toEqual(['Dana R.: welcome', `Acme ${AWKWARD}: hello`]);
    await insertMessages(p.id, [{ side: 'admin', authorId: team.id, text: 'draft attached', at: '2026-05-02 09:00:00+00' }]);
    expect(await texts()).toEqual(['Dana R.: draft attached', 'Dana R.: welcome', `Acme ${AWKWARD}: hello`]);
    await t.db.execute(sql`UPDATE payments SET brand_id = ${stranger.user.id}, organisation_id = ${stranger.user.organisationId} WHERE id = ${p.id}`);
    await t.db.execute(sql`UPDATE placements SET brand_id = ${stranger.user.id}, organisation_id = ${stranger.user.organisationId} WHERE id = ${p.id}`);
    const gone = await owner.agent.get(url);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(NOT_FOUND);
    expect(await texts(stranger.agent)).toEqual(['Dana R.: draft attached', 'Dana R.: welcome', `Acme ${AWKWARD}: hello`]);
  });
});

describe('GET …/timeline', () => {
  async function insertEvents(paymentId: string, details: Record<string, unknown>[]) {
    for (const [i, d] of details.entries()) {
      await t.db.insert(placementEvents).values({
        placementId: paymentId,
        kind: i % 2 ? 'edits_requested' : 'draft_attached',
        actorType: i % 3 === 2 ? 'system' : i % 2 ? 'brand' : 'admin',
        actorId: null,
        actorName: i % 3 === 2 ? 'Byline' : `Name ${AWKWARD}`,
        details: d,
        at: sql`${`2026-05-0${1 + (i % 9)} 12:34:56.${String(999999 - i).padStart(6, '0')}+00`}::timestamptz`,
      });
    }
  }

  it('answers each entry exactly as the TypeScript mapping did, oldest first, on every page', async () => {
    const p = await purchase(t.db, owner.user.id);
    await insertEvents(p.id, [
      {},
      { round: 2, feedback: AWKWARD },
      { amount: '1250.00', nested: { list: [1, 2.5, null, true, 'x'], empty: {} }, url: 'https://example.com/a?b="c"' },
      { step: 's1', n: -0.000001, big: 1e21 },
      { reason: 'admin' },
    ]);
    const expected = await timelineAsMapped(p.id);
    expect(expected).toHaveLength(5);
    await expectEveryPagingToBe(expected, (side, query) => timelineUrl(side, p.id, query), ['', '?limit=2', '?limit=1']);
    const first = await owner.agent.get(timelineUrl('brand', p.id, '?limit=2'));
    const link = first.headers.link as string;
    expect(link).toMatch(/^<\/api\/brand\/projects\/[0-9a-f-]+\/timeline\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    expect(Buffer.from(new URL(nextOf(link)!, 'http://x').searchParams.get('cursor')!, 'base64url').toString()).toBe(`e${expected[1].id}`);
  });

  it('an empty timeline is 200 []; another brand’s or a missing payment the same 404', async () => {
    const p = await purchase(t.db, owner.user.id);
    expect(await t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, p.id)))).toHaveLength(0);
    for (const res of [await owner.agent.get(timelineUrl('brand', p.id)), await admin.agent.get(timelineUrl('admin', p.id))]) {
      expect(res.status).toBe(200);
      expect(res.text).toBe('[]');
      expect(res.headers.link).toBeUndefined();
    }
    await insertEvents(p.id, [{}, {}]);
    const cursor = Buffer.from('e1').toString('base64url');
    for (const id of [p.id, MISSING]) {
      for (const query of ['', '?limit=1', `?cursor=${cursor}`]) {
        const res = await stranger.agent.get(timelineUrl('brand', id, query));
        expect(res.status, `${id} ${query}`).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    }
    const missing = await admin.agent.get(timelineUrl('admin', MISSING));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
    expect((await owner.agent.get(timelineUrl('brand', p.id, '?limit=201'))).status).toBe(400);
    expect((await owner.agent.get(timelineUrl('brand', p.id, '?limit=200'))).status).toBe(200);
  });

  it('a timeline asked again shows at once a new entry and a payment handed to another brand', async () => {
    const p = await purchase(t.db, owner.user.id);
    await insertEvents(p.id, [{ n: 1 }, { n: 2 }]);
    const url = timelineUrl('brand', p.id);
    const details = async (agent: Agent = owner.agent) => {
      const res = await agent.get<TimelineEntry[]>(url);
      expect(res.status, res.text).toBe(200);
      return res.body.map((e) => e.details.n);
    };
    expect(await details()).toEqual([1, 2]);
    expect(await details()).toEqual([1, 2]);

    // changed by plain SQL, as another server would: each shows in the next answer
    await insertEvents(p.id, [{ n: 3 }]);
    expect(await details()).toEqual([1, 2, 3]);
    await t.db.execute(sql`UPDATE payments SET brand_id = ${stranger.user.id}, organisation_id = ${stranger.user.organisationId} WHERE id = ${p.id}`);
    await t.db.execute(sql`UPDATE placements SET brand_id = ${stranger.user.id}, organisation_id = ${stranger.user.organisationId} WHERE id = ${p.id}`);
    const gone = await owner.agent.get(url);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(NOT_FOUND);
    expect(await details(stranger.agent)).toEqual([1, 2, 3]);
  });
});
