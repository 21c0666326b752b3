import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { opportunities } from '../../src/server/db/schema';
import { listClaimable, toBrandOpportunityJson } from '../../src/server/modules/opportunities/service';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { everyKind } from '../support/factories';

let t: TestApp;
let users: Awaited<ReturnType<typeof everyKind>>;
let admin: Agent;
let brand: Agent;

beforeAll(async () => {
  t = await createTestApp();
  users = await everyKind(t.app, t.db);
  admin = users.admin.agent;
  brand = users.approvedBrand.agent;
});
afterAll(() => t.close());

const DAY = 86_400_000;
const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

const validBody = () => ({
  outletName: 'The Daily Planet',
  outletUrl: 'https://dailyplanet.example.com',
  title: 'Founder profile in the business section',
  description: 'An in-depth profile written by our staff.',
  type: ['profile_article', 'listicle'],
  tat: '2-3 weeks',
  priceUsd: '2500.00',
  maxSlots: 3,
  domainAuthority: 88,
  deadlineDate: utcDay(30),
  logoUrl: '/uploads/0123456789abcdef0123456789abcdef.png',
  exampleUrls: ['https://dailyplanet.example.com/story', '/uploads/abcdefabcdefabcdefabcdefabcdefab.jpg'],
});

/** Inserts a row directly, for states an admin cannot create through the API. */
async function insertRow(overrides: Partial<typeof opportunities.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(opportunities)
    .values({
      outletName: 'Outlet',
      title: `Row ${Math.random().toString(16).slice(2)}`,
      description: 'Description',
      type: ['listicle'],
      priceUsd: '100.00',
      ...overrides,
    })
    .returning();
  return row;
}

const rowById = async (id: string) => (await t.db.select().from(opportunities).where(eq(opportunities.id, id)))[0];

/** One invalid field per case: the change, the field and the spec's message. */
const invalid: [string, Record<string, unknown>, string, string][] = [
  ['no type', { type: [] }, 'type', 'At least one type is required'],
  ['type missing', { type: undefined }, 'type', 'At least one type is required'],
  ['an unknown type', { type: ['press_release'] }, 'type.0', 'Unknown opportunity type'],
  ['no outlet name', { outletName: '  ' }, 'outletName', 'Outlet name is required'],
  ['outlet name missing', { outletName: undefined }, 'outletName', 'Outlet name is required'],
  ['no title', { title: '' }, 'title', 'Title is required'],
  ['no description', { description: undefined }, 'description', 'Description is required'],
  ['no price', { priceUsd: '' }, 'priceUsd', 'Price is required'],
  ['price missing', { priceUsd: undefined }, 'priceUsd', 'Price is required'],
  ['a price with 3 decimals', { priceUsd: '19.999' }, 'priceUsd', 'Price must be a valid amount'],
  ['a float price with 3 decimals', { priceUsd: 0.125 }, 'priceUsd', 'Price must be a valid amount'],
  ['a price that is text', { priceUsd: 'ten' }, 'priceUsd', 'Price must be a valid amount'],
  ['a price with a comma', { priceUsd: '1,000' }, 'priceUsd', 'Price must be a valid amount'],
  ['a price of 11 integer digits', { priceUsd: '12345678901' }, 'priceUsd', 'Price must be at most $9,999,999,999.99'],
  ['a price in exponent form', { priceUsd: 1e21 }, 'priceUsd', 'Price must be a valid amount'],
  ['a boolean price', { priceUsd: true }, 'priceUsd', 'Price must be a valid amount'],
  ['a price of 0', { priceUsd: '0.00' }, 'priceUsd', 'Price must be greater than 0'],
  ['a negative price', { priceUsd: -5 }, 'priceUsd', 'Price must be greater than 0'],
  ['no max slots', { maxSlots: '' }, 'maxSlots', 'Max slots is required'],
  ['max slots missing', { maxSlots: undefined }, 'maxSlots', 'Max slots is required'],
  ['max slots 0', { maxSlots: 0 }, 'maxSlots', 'Max slots must be at least 1'],
  ['max slots "0"', { maxSlots: '0' }, 'maxSlots', 'Max slots must be at least 1'],
  ['fractional max slots', { maxSlots: 1.5 }, 'maxSlots', 'Max slots must be a whole number'],
  ['max slots as text', { maxSlots: 'many' }, 'maxSlots', 'Max slots must be a valid number'],
  ['max slots past the limit', { maxSlots: 100_000_000_000 }, 'maxSlots', 'Max slots must be at most 10000'],
  [
    // a bare domain is read as https (issue 20): a word without a dot is no address
    'an outlet URL that is no address',
    { outletUrl: 'dailyplanet' },
    'outletUrl',
    'Outlet URL must be a valid URL',
  ],
  ['a javascript: outlet URL', { outletUrl: 'javascript:alert(1)' }, 'outletUrl', 'Outlet URL must be a valid URL'],
  ['an ftp outlet URL', { outletUrl: 'ftp://files.example.com/' }, 'outletUrl', 'Outlet URL must be a valid URL'],
  ['a javascript: logo', { logoUrl: 'javascript:alert(1)' }, 'logoUrl', 'Logo must be a valid URL'],
  ['a data: logo', { logoUrl: 'data:image/svg+xml,<svg/>' }, 'logoUrl', 'Logo must be a valid URL'],
  ['a protocol-relative logo', { logoUrl: '//evil.example/logo.png' }, 'logoUrl', 'Logo must be a valid URL'],
  ['a relative logo path', { logoUrl: 'logo.png' }, 'logoUrl', 'Logo must be a URL or path starting with /'],
  [
    'a logo path climbing up',
    { logoUrl: '/uploads/../secret' },
    'logoUrl',
    'Logo must be a URL or path starting with /',
  ],
  [
    '4 examples',
    {
      exampleUrls: ['https://a.example.com', 'https://b.example.com', 'https://c.example.com', 'https://d.example.com'],
    },
    'exampleUrls',
    'Maximum 3 examples allowed',
  ],
  [
    'an example that is no URL',
    { exampleUrls: ['https://ok.example.com', 'javascript:alert(1)'] },
    'exampleUrls.1',
    'Must be a valid URL',
  ],
  ['an example outside /uploads/', { exampleUrls: ['/etc/passwd'] }, 'exampleUrls.0', 'Must be a URL or upload path'],
  [
    'an example that is no address',
    { exampleUrls: ['story-without-a-domain'] },
    'exampleUrls.0',
    'Must be a URL or upload path',
  ],
  [
    'examples that are not a list',
    { exampleUrls: 'https://a.example.com' },
    'exampleUrls',
    'Examples must be a list of URLs',
  ],
  ['a domain authority of 0', { domainAuthority: 0 }, 'domainAuthority', 'Domain Authority must be at least 1'],
  ['a domain authority of 101', { domainAuthority: '101' }, 'domainAuthority', 'Domain Authority must be at most 100'],
  [
    'a domain authority that is text',
    { domainAuthority: 'high' },
    'domainAuthority',
    'Domain Authority must be a valid number',
  ],
  [
    'a fractional domain authority',
    { domainAuthority: '45.5' },
    'domainAuthority',
    'Domain Authority must be between 1 and 100',
  ],
  ['a deadline two days ago', { deadlineDate: utcDay(-2) }, 'deadlineDate', 'Deadline cannot be in the past'],
  ['a deadline that is no date', { deadlineDate: 'next friday' }, 'deadlineDate', 'Deadline must be a valid date'],
  ['a deadline of February 30', { deadlineDate: '2031-02-30' }, 'deadlineDate', 'Deadline must be a valid date'],
  ['a turnaround that is too long', { tat: 'x'.repeat(101) }, 'tat', 'Turnaround must be at most 100 characters'],
];

describe('access to every opportunity endpoint', () => {
  let id: string;
  beforeAll(async () => {
    id = (await insertRow()).id;
  });

  const brandOnly = { visitor: 401, unnamedBrand: 403, pendingBrand: 403, approvedBrand: 200, admin: 403 } as const;
  const adminOnly = { visitor: 401, unnamedBrand: 403, pendingBrand: 403, approvedBrand: 403, admin: 200 } as const;

  it.each(Object.entries(brandOnly))('[%s] GET /api/opportunities → %i', async (kind, status) => {
    const res = await users[kind as keyof typeof users].agent.get('/api/opportunities');
    expect(res.status).toBe(status);
    if (status !== 200) expect(res.body.message).toEqual(expect.any(String));
  });

  it.each(Object.entries(adminOnly))('[%s] the admin endpoints answer %i', async (kind, status) => {
    const agent = users[kind as keyof typeof users].agent;
    const before = await t.db.$count(opportunities);
    const row = await rowById(id);
    expect((await agent.get('/api/admin/opportunities')).status).toBe(status);
    expect((await agent.get(`/api/admin/opportunities/${id}`)).status).toBe(status);
    const created = await agent.post('/api/admin/opportunities', validBody());
    expect(created.status).toBe(status === 200 ? 201 : status);
    const updated = await agent.patch(`/api/admin/opportunities/${id}`, {
      ...validBody(),
      title: `Changed by ${kind}`,
    });
    expect(updated.status).toBe(status);
    if (status !== 200) {
      expect(created.body.message).toEqual(expect.any(String));
      expect(await t.db.$count(opportunities)).toBe(before);
      expect(await rowById(id)).toEqual(row);
    }
  });
});

describe('POST /api/admin/opportunities', () => {
  it('[ADMIN] creates an opportunity with every field and returns it', async () => {
    const body = validBody();
    const res = await admin.post('/api/admin/opportunities', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      ...body,
      priceUsd: '2500.00',
      deadlineDate: `${body.deadlineDate}T00:00:00.000Z`,
      filledSlots: 0,
      status: 'available',
      createdAt: expect.any(String),
      tatDays: null,
      linkType: null,
      topics: [],
      country: null,
      language: null,
      // its outlet, made by the database from the outlet URL's host (issue 48)
      outletId: expect.any(String),
    });
    const row = await rowById(res.body.id);
    expect(row).toMatchObject({
      outletName: body.outletName,
      type: body.type,
      priceUsd: '2500.00',
      maxSlots: 3,
      filledSlots: 0,
      domainAuthority: 88,
      status: 'available',
      exampleUrls: body.exampleUrls,
    });
    expect(row.deadlineDate?.toISOString()).toBe(`${body.deadlineDate}T00:00:00.000Z`);
  });

  it('[ADMIN] needs only the required fields: the rest become empty', async () => {
    const res = await admin.post('/api/admin/opportunities', {
      outletName: 'Only Required',
      title: 'Title',
      description: 'Desc',
      type: ['editorial_feature'],
      priceUsd: 10,
      maxSlots: '1',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      outletUrl: null,
      tat: null,
      logoUrl: null,
      exampleUrls: [],
      domainAuthority: null,
      deadlineDate: null,
      priceUsd: '10.00',
      maxSlots: 1,
    });
  });

  it.each([
    ['19.99', '19.99'],
    [19.99, '19.99'],
    ['1234.5', '1234.50'],
    [1234.5, '1234.50'],
    [' 7 ', '7.00'],
    ['0.01', '0.01'],
    ['9999999999.99', '9999999999.99'],
  ])('stores the price %j exactly as %s', async (priceUsd, stored) => {
    const res = await admin.post('/api/admin/opportunities', { ...validBody(), priceUsd });
    expect(res.status).toBe(201);
    expect(res.body.priceUsd).toBe(stored);
    expect((await rowById(res.body.id)).priceUsd).toBe(stored);
  });

  it('treats empty optional fields as none', async () => {
    const res = await admin.post('/api/admin/opportunities', {
      ...validBody(),
      outletUrl: '',
      tat: '  ',
      domainAuthority: '',
      deadlineDate: '',
      logoUrl: '',
      exampleUrls: ['', ' '],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      outletUrl: null,
      tat: null,
      domainAuthority: null,
      deadlineDate: null,
      logoUrl: null,
      exampleUrls: [],
    });
  });

  it('accepts the values of the form as strings, and an ISO datetime deadline by its date', async () => {
    const res = await admin.post('/api/admin/opportunities', {
      ...validBody(),
      maxSlots: '12',
      domainAuthority: '100',
      deadlineDate: `${utcDay(10)}T18:30:00.000Z`,
      logoUrl: 'https://cdn.example.com/logo.svg',
      type: ['listicle', 'listicle'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      maxSlots: 12,
      domainAuthority: 100,
      deadlineDate: `${utcDay(10)}T00:00:00.000Z`,
      type: ['listicle'],
    });
  });

  it('accepts a deadline of today, and of UTC yesterday (an admin west of UTC is still there)', async () => {
    for (const day of [utcDay(0), utcDay(-1)]) {
      const res = await admin.post('/api/admin/opportunities', { ...validBody(), deadlineDate: day });
      expect(res.status).toBe(201);
    }
  });

  it('[SECURITY] ignores status, filledSlots and other server fields sent by the admin', async () => {
    const res = await admin.post('/api/admin/opportunities', {
      ...validBody(),
      status: 'published',
      filledSlots: 3,
      id: '00000000-0000-4000-8000-000000000000',
      createdAt: '2001-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe('00000000-0000-4000-8000-000000000000');
    const row = await rowById(res.body.id);
    expect(row).toMatchObject({ status: 'available', filledSlots: 0 });
    expect(row.createdAt.getFullYear()).toBeGreaterThan(2001);
  });

  it.each(invalid)('refuses %s with its message and saves nothing', async (_case, change, field, message) => {
    const before = await t.db.$count(opportunities);
    const res = await admin.post('/api/admin/opportunities', { ...validBody(), ...change });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBe(message);
    expect(res.body.message).toEqual(expect.any(String));
    expect(await t.db.$count(opportunities)).toBe(before);
  });

  it('reports every invalid field at once', async () => {
    const res = await admin.post('/api/admin/opportunities', {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      outletName: 'Outlet name is required',
      title: 'Title is required',
      description: 'Description is required',
      type: 'At least one type is required',
      priceUsd: 'Price is required',
      maxSlots: 'Max slots is required',
    });
  });

  it('refuses a body that is not JSON with 400', async () => {
    const res = await admin.request('POST', '/api/admin/opportunities', Buffer.from('{nope'), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
  });
});

describe('GET /api/admin/opportunities[/:id]', () => {
  it('[ADMIN] returns one opportunity, 404 when there is none or the id is no uuid', async () => {
    const row = await insertRow({ title: 'Fetch me' });
    const res = await admin.get(`/api/admin/opportunities/${row.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: row.id, title: 'Fetch me', status: 'available', filledSlots: 0 });

    const missing = await admin.get('/api/admin/opportunities/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Opportunity not found');
    const odd = await admin.get('/api/admin/opportunities/not-a-uuid');
    expect(odd.status).toBe(404);
    expect((await admin.get(`/api/admin/opportunities/${'x'.repeat(400)}`)).status).toBe(404);
  });
});

describe('PATCH /api/admin/opportunities/:id', () => {
  it('[ADMIN] replaces the editable fields', async () => {
    const row = await insertRow({ maxSlots: 2 });
    const body = { ...validBody(), title: 'New title', priceUsd: 19.99, exampleUrls: [], outletUrl: '' };
    const res = await admin.patch(`/api/admin/opportunities/${row.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: row.id,
      title: 'New title',
      priceUsd: '19.99',
      exampleUrls: [],
      outletUrl: null,
      maxSlots: 3,
    });
    expect(await rowById(row.id)).toMatchObject({
      title: 'New title',
      priceUsd: '19.99',
      exampleUrls: [],
      outletUrl: null,
      maxSlots: 3,
    });
  });

  it('[SECURITY] ignores status and filledSlots', async () => {
    const row = await insertRow({ maxSlots: 5, filledSlots: 1 });
    const res = await admin.patch(`/api/admin/opportunities/${row.id}`, {
      ...validBody(),
      maxSlots: 5,
      status: 'published',
      filledSlots: 0,
    });
    expect(res.status).toBe(200);
    expect(await rowById(row.id)).toMatchObject({ status: 'available', filledSlots: 1 });
  });

  it.each(invalid)('refuses %s and changes nothing', async (_case, change, field, message) => {
    const row = await insertRow();
    const res = await admin.patch(`/api/admin/opportunities/${row.id}`, { ...validBody(), ...change });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBe(message);
    expect(await rowById(row.id)).toEqual(row);
  });

  it('answers 404 for a missing opportunity and for an id that is no uuid', async () => {
    const before = await t.db.$count(opportunities);
    expect(
      (await admin.patch('/api/admin/opportunities/00000000-0000-4000-8000-000000000000', validBody())).status,
    ).toBe(404);
    expect((await admin.patch('/api/admin/opportunities/abc', validBody())).status).toBe(404);
    expect(await t.db.$count(opportunities)).toBe(before);
  });

  describe('max slots and status', () => {
    let id: string;
    beforeEach(async () => {
      id = (await insertRow({ maxSlots: 3, filledSlots: 2 })).id;
    });
    const patchSlots = (maxSlots: number | string) =>
      admin.patch(`/api/admin/opportunities/${id}`, { ...validBody(), maxSlots });

    it('becomes full when max slots drops to the slots filled, and available again when raised', async () => {
      let res = await patchSlots(2);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ maxSlots: 2, filledSlots: 2, status: 'full' });
      expect(await rowById(id)).toMatchObject({ maxSlots: 2, status: 'full' });

      res = await patchSlots('4');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ maxSlots: 4, filledSlots: 2, status: 'available' });
      expect(await rowById(id)).toMatchObject({ maxSlots: 4, status: 'available' });
    });

    it('refuses max slots below the slots filled with 409 and changes nothing', async () => {
      const before = await rowById(id);
      const res = await patchSlots(1);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Max slots cannot be lower than the 2 slots already filled');
      expect(await rowById(id)).toEqual(before);
    });

    it('leaves claimed, in-progress and published opportunities in their status', async () => {
      for (const status of ['claimed', 'in_progress', 'published'] as const) {
        await t.db.update(opportunities).set({ status }).where(eq(opportunities.id, id));
        expect((await patchSlots(2)).body.status).toBe(status);
        expect((await patchSlots(5)).body.status).toBe(status);
      }
    });
  });
});

describe('GET /api/opportunities (brand browse)', () => {
  it('lists only available opportunities whose deadline has not passed, newest first, without status', async () => {
    await t.db.delete(opportunities);
    const startOfToday = new Date(`${utcDay(0)}T00:00:00.000Z`);
    const at = (minutes: number) => new Date(Date.now() - 60 * 60_000 + minutes * 60_000);
    const shown = [
      await insertRow({ title: 'no deadline', createdAt: at(1) }),
      await insertRow({
        title: 'deadline next month',
        deadlineDate: new Date(Date.now() + 30 * DAY),
        createdAt: at(2),
      }),
      await insertRow({ title: 'deadline today', deadlineDate: startOfToday, createdAt: at(3) }),
      await insertRow({ title: 'listicle with room', maxSlots: 10, filledSlots: 9, createdAt: at(4) }),
    ];
    const hidden = [
      await insertRow({
        title: 'deadline yesterday',
        deadlineDate: new Date(startOfToday.getTime() - 1),
        createdAt: at(5),
      }),
      await insertRow({ title: 'deadline last week', deadlineDate: new Date(Date.now() - 7 * DAY), createdAt: at(6) }),
      await insertRow({ title: 'full', status: 'full', maxSlots: 2, filledSlots: 2, createdAt: at(7) }),
      await insertRow({ title: 'claimed', status: 'claimed', createdAt: at(8) }),
      await insertRow({ title: 'in progress', status: 'in_progress', createdAt: at(9) }),
      await insertRow({ title: 'published', status: 'published', createdAt: at(10) }),
    ];

    const res = await brand.get('/api/opportunities');
    expect(res.status).toBe(200);
    expect(res.body.map((o: { title: string }) => o.title)).toEqual(shown.map((r) => r.title).reverse());
    for (const o of res.body) {
      expect(o).not.toHaveProperty('status');
      expect(Object.keys(o).sort()).toEqual(
        [
          'id',
          'title',
          'outletName',
          'outletUrl',
          'description',
          'type',
          'tat',
          'priceUsd',
          'logoUrl',
          'exampleUrls',
          'maxSlots',
          'filledSlots',
          'domainAuthority',
          'deadlineDate',
          'createdAt',
          'tatDays',
          'linkType',
          'topics',
          'country',
          'language',
          'outletId',
          'promise',
        ].sort(),
      );
    }
    expect(res.body.find((o: { title: string }) => o.title === 'listicle with room')).toMatchObject({
      maxSlots: 10,
      filledSlots: 9,
    });

    // the admin list has them all, newest first, with their status
    const all = await admin.get('/api/admin/opportunities');
    expect(all.status).toBe(200);
    expect(all.body.map((o: { title: string }) => o.title)).toEqual(
      [...shown, ...hidden].map((r) => r.title).reverse(),
    );
    expect(all.body.find((o: { title: string }) => o.title === 'claimed').status).toBe('claimed');
  });

  it('shows what an admin creates, and stops showing it once it is full', async () => {
    const created = await admin.post('/api/admin/opportunities', { ...validBody(), maxSlots: 1, title: 'Fresh one' });
    const ids = async () => (await brand.get('/api/opportunities')).body.map((o: { id: string }) => o.id);
    expect(await ids()).toContain(created.body.id);
    await t.db.update(opportunities).set({ filledSlots: 1 }).where(eq(opportunities.id, created.body.id));
    expect(
      (
        await admin.patch(`/api/admin/opportunities/${created.body.id}`, {
          ...validBody(),
          maxSlots: 1,
          title: 'Fresh one',
        })
      ).body.status,
    ).toBe('full');
    expect(await ids()).not.toContain(created.body.id);
  });
});

describe('[ADMIN] editing an opportunity whose deadline has passed', () => {
  it('keeps the stored past deadline, but refuses moving it to another past day', async () => {
    const pastDay = utcDay(-10);
    const row = await insertRow({ deadlineDate: new Date(`${pastDay}T00:00:00.000Z`) });
    const keep = await admin.patch(`/api/admin/opportunities/${row.id}`, { ...validBody(), title: 'Typo fixed', deadlineDate: pastDay });
    expect(keep.status).toBe(200);
    expect((await rowById(row.id)).title).toBe('Typo fixed');

    const other = await admin.patch(`/api/admin/opportunities/${row.id}`, { ...validBody(), title: 'Again', deadlineDate: utcDay(-5) });
    expect(other.status).toBe(400);
    expect(other.body.errors.deadlineDate).toBe('Deadline cannot be in the past');
    expect((await rowById(row.id)).title).toBe('Typo fixed');
  });
});

describe('GET /api/opportunities body (built by Postgres)', () => {
  const future = () => new Date(`${utcDay(20)}T00:00:00.000Z`);

  it('is byte for byte what toBrandOpportunityJson gives, awkward values included', async () => {
    await t.db.delete(opportunities);
    await insertRow({
      title: 'Quotes " and \\ backslash, tab\t, newline\n, control \u0001\u001f, é, 汉字, emoji 🎉, \u2028 separator',
      description: '<script>alert("x")</script> & more / slashes',
      outletName: 'Ünïcode Outlet',
      outletUrl: null,
      tat: null,
      logoUrl: null,
      domainAuthority: null,
      deadlineDate: null,
      exampleUrls: [],
      type: ['profile_article', 'editorial_feature', 'advertorial_brand_voice', 'listicle'],
      priceUsd: '12345678.90',
      // microseconds are stored; the JSON shows milliseconds, truncated as a JS Date does
      createdAt: sql`'2024-02-29 23:59:59.999999+00'::timestamptz` as unknown as Date,
    });
    await insertRow({
      title: 'Everything set',
      outletUrl: 'https://outlet.example.com/?a=1&b=2',
      tat: '2-3 weeks',
      logoUrl: '/uploads/0123456789abcdef0123456789abcdef.png',
      domainAuthority: 100,
      deadlineDate: future(),
      exampleUrls: ['https://a.example.com/x', '/uploads/abcdefabcdefabcdefabcdefabcdefab.jpg', 'https://c.example.com'],
      maxSlots: 10_000,
      filledSlots: 9_999,
      priceUsd: '0.01',
      createdAt: sql`'2026-01-01 00:00:00.291+00'::timestamptz` as unknown as Date,
    });
    // the same instant twice: the id decides the order
    const tie = sql`'2025-06-01 12:00:00.5+00'::timestamptz` as unknown as Date;
    await insertRow({ title: 'tie a', createdAt: tie });
    await insertRow({ title: 'tie b', createdAt: tie });

    const res = await brand.get('/api/opportunities');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toHaveLength(4);
    expect(res.text).toBe(JSON.stringify((await listClaimable(t.db)).map(toBrandOpportunityJson)));
    expect(res.body[3].createdAt).toBe('2024-02-29T23:59:59.999Z');
  });

  it('is an empty array when nothing can be claimed', async () => {
    await t.db.delete(opportunities);
    await insertRow({ title: 'published', status: 'published' });
    const res = await brand.get('/api/opportunities');
    expect(res.status).toBe(200);
    expect(res.text).toBe('[]');
  });

  it('never lists an "available" row that has no slot left', async () => {
    await t.db.delete(opportunities);
    await insertRow({ title: 'inconsistent', maxSlots: 2, filledSlots: 2 });
    await insertRow({ title: 'one left', maxSlots: 2, filledSlots: 1 });
    const res = await brand.get('/api/opportunities');
    expect(res.body.map((o: { title: string }) => o.title)).toEqual(['one left']);
  });
});
