import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opportunities } from '../../src/server/db/schema';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

/**
 * The catalogue fields beyond the spec (turnaround days, link type, topics, country, language)
 * through the admin API: stored as normalised, returned by the admin's GET and list, shown to
 * brands in their catalogue, cleared by an edit that leaves them out; a bad value is a 400 naming
 * the field, and nothing is stored.
 */

let t: TestApp;
let admin: Agent;
let brand: Agent;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
});
afterAll(() => t.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  outletName: 'Handelsblatt Morgen',
  title: 'Gastbeitrag im Wirtschaftsteil',
  description: 'Ein Gastbeitrag über Ihr Unternehmen.',
  type: ['editorial_feature'],
  tat: '2 weeks',
  priceUsd: '1400.00',
  maxSlots: 2,
  ...overrides,
});

const rowOf = async (id: string) => (await t.db.select().from(opportunities).where(eq(opportunities.id, id)))[0];
const rowsNamed = (outletName: string) => t.db.select().from(opportunities).where(eq(opportunities.outletName, outletName));
const NEW_FIELDS = ['tatDays', 'linkType', 'topics', 'country', 'language'] as const;
const fieldsOf = (o: Record<string, unknown>) => Object.fromEntries(NEW_FIELDS.map((k) => [k, o[k]]));

describe('[ADMIN] the catalogue fields round-trip', () => {
  it('POST normalises and stores them; GET, the dashboard list and the brands catalogue return them', async () => {
    const created = await admin.post('/api/admin/opportunities', body({ tatDays: '14', linkType: 'sponsored', topics: ['finance', 'fintech', 'finance'], country: 'de', language: 'DE' }));
    expect(created.status, created.text).toBe(201);
    const expected = { tatDays: 14, linkType: 'sponsored', topics: ['finance', 'fintech'], country: 'DE', language: 'de' };
    expect(fieldsOf(created.body)).toEqual(expected);

    const row = await rowOf(created.body.id);
    expect(fieldsOf(row)).toEqual(expected);

    const one = await admin.get(`/api/admin/opportunities/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(fieldsOf(one.body)).toEqual(expected);

    const list = await admin.get('/api/admin/opportunities');
    expect(fieldsOf(list.body.find((o: { id: string }) => o.id === created.body.id))).toEqual(expected);

    // the spec's whole list and the search both carry them
    const browse = await brand.get('/api/opportunities');
    expect(browse.status).toBe(200);
    expect(fieldsOf(browse.body.find((o: { id: string }) => o.id === created.body.id))).toEqual(expected);
    const searched = await brand.get('/api/opportunities?country=DE&linkType=sponsored');
    expect(searched.status, searched.text).toBe(200);
    expect(fieldsOf(searched.body.find((o: { id: string }) => o.id === created.body.id))).toEqual(expected);
  });

  it('PATCH replaces them, and an edit that sends them empty clears them', async () => {
    const created = await admin.post('/api/admin/opportunities', body({ tatDays: 7, linkType: 'dofollow', topics: ['ai'], country: 'US', language: 'en' }));
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;

    const changed = await admin.patch(`/api/admin/opportunities/${id}`, body({ tatDays: 30, linkType: 'nofollow', topics: ['travel', 'food'], country: 'fr', language: 'fr' }));
    expect(changed.status, changed.text).toBe(200);
    const expected = { tatDays: 30, linkType: 'nofollow', topics: ['travel', 'food'], country: 'FR', language: 'fr' };
    expect(fieldsOf(changed.body)).toEqual(expected);
    expect(fieldsOf((await admin.get(`/api/admin/opportunities/${id}`)).body)).toEqual(expected);
    expect(fieldsOf(await rowOf(id))).toEqual(expected);

    // what the admin form sends when every new field is left empty
    const cleared = await admin.patch(`/api/admin/opportunities/${id}`, body({ tatDays: '', linkType: '', topics: [], country: '', language: '' }));
    expect(cleared.status, cleared.text).toBe(200);
    const none = { tatDays: null, linkType: null, topics: [], country: null, language: null };
    expect(fieldsOf(cleared.body)).toEqual(none);
    expect(fieldsOf(await rowOf(id))).toEqual(none);
  });

  it('an opportunity created without them has none', async () => {
    const created = await admin.post('/api/admin/opportunities', body());
    expect(created.status, created.text).toBe(201);
    expect(fieldsOf(created.body)).toEqual({ tatDays: null, linkType: null, topics: [], country: null, language: null });
  });
});

/** One bad value per case: the field, the value and its message. */
const invalid: [string, Record<string, unknown>, string, string][] = [
  ['turnaround days 0', { tatDays: 0 }, 'tatDays', 'Turnaround days must be at least 1'],
  ['turnaround days 366', { tatDays: '366' }, 'tatDays', 'Turnaround days must be at most 365'],
  ['turnaround days 2.5', { tatDays: 2.5 }, 'tatDays', 'Turnaround days must be a whole number'],
  ['turnaround days as words', { tatDays: 'two weeks' }, 'tatDays', 'Turnaround days must be a whole number'],
  ['turnaround days true', { tatDays: true }, 'tatDays', 'Turnaround days must be a whole number'],
  ['an unknown link type', { linkType: 'ugc' }, 'linkType', 'Link type must be one of dofollow, nofollow, sponsored'],
  ['an upper-case link type', { linkType: 'Sponsored' }, 'linkType', 'Link type must be one of dofollow, nofollow, sponsored'],
  ['an unknown topic', { topics: ['finance', 'knitting'] }, 'topics.1', 'Unknown topic'],
  ['topics as text', { topics: 'finance' }, 'topics', 'Topics must be a list'],
  ['an unknown country', { country: 'XX' }, 'country', 'Country must be an ISO 3166-1 alpha-2 code, e.g. DE'],
  ['a country name', { country: 'Germany' }, 'country', 'Country must be an ISO 3166-1 alpha-2 code, e.g. DE'],
  ['an unknown language', { language: 'xx' }, 'language', 'Language must be an ISO 639-1 code, e.g. de'],
  ['a three-letter language', { language: 'deu' }, 'language', 'Language must be an ISO 639-1 code, e.g. de'],
];

describe('[ADMIN] bad values are refused', () => {
  it.each(invalid)('POST with %s → 400 on the field, nothing stored', async (_name, change, field, message) => {
    const outletName = `Refused ${field} ${Math.random().toString(16).slice(2)}`;
    const res = await admin.post('/api/admin/opportunities', body({ outletName, ...change }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors?.[field]).toBe(message);
    expect(await rowsNamed(outletName)).toHaveLength(0);
  });

  it.each(invalid)('PATCH with %s → 400 on the field, the row unchanged', async (_name, change, field, message) => {
    const created = await admin.post('/api/admin/opportunities', body({ tatDays: 10, linkType: 'dofollow', topics: ['business'], country: 'GB', language: 'en' }));
    expect(created.status, created.text).toBe(201);
    const before = await rowOf(created.body.id);
    const res = await admin.patch(`/api/admin/opportunities/${created.body.id}`, body({ title: 'Changed title', ...change }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors?.[field]).toBe(message);
    expect(await rowOf(created.body.id)).toEqual(before);
  });

  it('a brand cannot set them', async () => {
    const outletName = 'Brand-made outlet';
    const res = await brand.post('/api/admin/opportunities', body({ outletName, tatDays: 3 }));
    expect(res.status).toBe(403);
    expect(await rowsNamed(outletName)).toHaveLength(0);
  });
});
