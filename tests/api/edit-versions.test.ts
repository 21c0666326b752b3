/**
 * No silent overwrite for the opportunity form and the profile form (issue 20, decision 019): GET
 * answers a `version`, a save may send it back as `baseVersion`, one based on an older copy is
 * refused with 409 `{message, current}` and changes nothing; a save without it works as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { opportunities, users } from '../../src/server/db/schema';
import { createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, opportunityRow } from '../support/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = () => signedIn(t.app, t.db, kinds.admin);
const brand = () => signedIn(t.app, t.db, kinds.approvedBrand);

/** The form's body: the opportunity's editable fields as GET answers them. */
function formBody(o: Record<string, unknown>) {
  const { id: _id, filledSlots: _f, status: _s, createdAt: _c, version: _v, ...fields } = o;
  return { ...fields, deadlineDate: typeof fields.deadlineDate === 'string' ? fields.deadlineDate.slice(0, 10) : null };
}

describe('opportunity versions: an admin save based on an older copy is refused', () => {
  it('[ADMIN] GET answers a version; a save on it stores and answers the next one; an older one is 409 and changes nothing', async () => {
    const a = await admin();
    const b = await admin(); // a second admin, with the form open since before a's save
    const row = await createOpportunity(t.db, { maxSlots: 3 });
    const url = `/api/admin/opportunities/${row.id}`;

    const opened = await a.agent.get(url);
    expect(opened.status).toBe(200);
    expect(opened.body.version).toEqual(expect.any(String));
    const openedByB = (await b.agent.get(url)).body;
    expect(openedByB.version).toBe(opened.body.version);

    const saved = await a.agent.patch(url, { ...formBody(opened.body), title: 'Title from admin A', baseVersion: opened.body.version });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ title: 'Title from admin A', version: expect.any(String) });
    expect(saved.body.version).not.toBe(opened.body.version);
    expect((await a.agent.get(url)).body.version).toBe(saved.body.version);
    const before = await opportunityRow(t.db, row.id);

    const stale = await b.agent.patch(url, { ...formBody(openedByB), priceUsd: '99.00', baseVersion: openedByB.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      message: 'This opportunity was changed by someone else since you opened it',
      code: 'stale_copy',
      current: (await a.agent.get(url)).body,
    });
    expect(stale.body.current).toMatchObject({ title: 'Title from admin A', priceUsd: '1250.00', version: saved.body.version });
    expect(await opportunityRow(t.db, row.id)).toEqual(before);

    // on the current version (the merged copy) it is stored
    const merged = await b.agent.patch(url, { ...formBody(stale.body.current), priceUsd: '99.00', baseVersion: stale.body.current.version });
    expect(merged.status).toBe(200);
    expect(await opportunityRow(t.db, row.id)).toMatchObject({ title: 'Title from admin A', priceUsd: '99.00' });
  });

  it('[ADMIN] a slot taken while the form is open does not change the version', async () => {
    const a = await admin();
    const row = await createOpportunity(t.db, { maxSlots: 2 });
    const url = `/api/admin/opportunities/${row.id}`;
    const opened = (await a.agent.get(url)).body;
    // a checkout fills the last slots: filledSlots and status change, nothing the form edits
    await t.db.update(opportunities).set({ filledSlots: 2, status: 'full' }).where(eq(opportunities.id, row.id));
    expect((await a.agent.get(url)).body).toMatchObject({ filledSlots: 2, status: 'full', version: opened.version });
    const saved = await a.agent.patch(url, { ...formBody(opened), title: 'Still saves', baseVersion: opened.version });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ title: 'Still saves', filledSlots: 2, status: 'full' });
  });

  it('[ADMIN] a save without baseVersion (the spec body) overwrites as before; a bad baseVersion is a 400', async () => {
    const a = await admin();
    const row = await createOpportunity(t.db);
    const url = `/api/admin/opportunities/${row.id}`;
    const opened = (await a.agent.get(url)).body;
    expect((await a.agent.patch(url, { ...formBody(opened), title: 'First' })).status).toBe(200);
    const second = await a.agent.patch(url, { ...formBody(opened), title: 'Second' });
    expect(second.status).toBe(200);
    expect((await opportunityRow(t.db, row.id)).title).toBe('Second');

    const bad = await a.agent.patch(url, { ...formBody(opened), baseVersion: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ baseVersion: 'baseVersion must be text' });
    // any stale text is just an older version: refused, never stored
    const unknown = await a.agent.patch(url, { ...formBody(opened), title: 'Never', baseVersion: 'not-a-version' });
    expect(unknown.status).toBe(409);
    expect((await opportunityRow(t.db, row.id)).title).toBe('Second');
  });
});

describe('profile versions: a profile save based on an older copy is refused', () => {
  const row = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

  it('[BRAND] the user carries a version; two windows: the later save on the older copy is 409 and changes nothing', async () => {
    const a = await brand();
    const me = await a.agent.get('/api/user');
    expect(me.body.version).toEqual(expect.any(String));
    const edit = { name: 'Riley Jordan', brandName: 'Jordan Goods', website: 'jordan.example.com' };

    const first = await a.agent.patch('/api/user/profile', { ...edit, brandName: 'Window One Goods', baseVersion: me.body.version });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ brandName: 'Window One Goods', website: 'https://jordan.example.com', version: expect.any(String) });
    expect(first.body.version).not.toBe(me.body.version);
    expect((await a.agent.get('/api/user')).body.version).toBe(first.body.version);
    const before = await row(a.user.id);

    const stale = await a.agent.patch('/api/user/profile', { ...edit, name: 'Window Two', baseVersion: me.body.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      message: 'Your profile was changed in another window since you started editing',
      code: 'stale_copy',
      current: (await a.agent.get('/api/user')).body,
    });
    expect(stale.body.current).toMatchObject({ name: 'Riley Jordan', brandName: 'Window One Goods' });
    expect(await row(a.user.id)).toEqual(before);

    const merged = await a.agent.patch('/api/user/profile', {
      ...edit,
      brandName: 'Window One Goods',
      name: 'Window Two',
      baseVersion: stale.body.current.version,
    });
    expect(merged.status).toBe(200);
    expect(await row(a.user.id)).toMatchObject({ name: 'Window Two', brandName: 'Window One Goods' });
  });

  it('[BRAND] the avatar and the e-mail switch change no version; a save without baseVersion overwrites as before', async () => {
    const a = await brand();
    const opened = (await a.agent.get('/api/user')).body;
    const off = await a.agent.patch('/api/user/profile', { emailNotifications: false });
    expect(off.status).toBe(200);
    expect(off.body.version).toBe(opened.version);
    const edit = { name: 'Riley Jordan', brandName: 'Jordan Goods', website: 'https://jordan.example.com' };
    expect((await a.agent.patch('/api/user/profile', { ...edit, baseVersion: opened.version })).status).toBe(200);

    const plain = await a.agent.patch('/api/user/profile', { ...edit, name: 'No version sent' });
    expect(plain.status).toBe(200);
    expect((await row(a.user.id)).name).toBe('No version sent');
  });

  it('[ADMIN] an admin edits only the name, versioned the same way', async () => {
    const a = await admin();
    const opened = (await a.agent.get('/api/user')).body;
    expect((await a.agent.patch('/api/user/profile', { name: 'Ada Renamed', baseVersion: opened.version })).status).toBe(200);
    const stale = await a.agent.patch('/api/user/profile', { name: 'Ada Stale', baseVersion: opened.version });
    expect(stale.status).toBe(409);
    expect((await row(a.user.id)).name).toBe('Ada Renamed');
  });
});
