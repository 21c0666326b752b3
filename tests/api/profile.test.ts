import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteCodes, users } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { createUser, kinds, signedIn } from '../support/factories';

const INVALID_CODE = 'This invite code is not valid or is no longer active';
const COMPLETE = { name: 'Jane Brand', brandName: 'Acme Coffee', website: 'https://acme.example.com' };

let t: TestApp;
let activeCode: string;
let deactivatedCode: string;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.db, kinds.admin);
  activeCode = 'WELCOME-24';
  deactivatedCode = 'OLD-CODE';
  await t.db.insert(inviteCodes).values([
    { code: activeCode, createdBy: admin.id },
    { code: deactivatedCode, createdBy: admin.id, active: false },
  ]);
});
afterAll(() => t.close());

const row = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];
const unnamedBrand = () => signedIn(t.app, t.db, kinds.unnamedBrand);

describe('PATCH /api/user/profile: profile completion ("Almost there")', () => {
  it.each([
    [{ ...COMPLETE, name: '' }, 'name', 'Name is required'],
    [{ ...COMPLETE, name: '   ' }, 'name', 'Name is required'],
    [{ brandName: COMPLETE.brandName, website: COMPLETE.website }, 'name', 'Name is required'],
    [{ ...COMPLETE, brandName: '' }, 'brandName', 'Company name is required'],
    [{ name: COMPLETE.name, website: COMPLETE.website }, 'brandName', 'Company name is required'],
    [{ ...COMPLETE, website: '' }, 'website', 'Website is required'],
    [{ name: COMPLETE.name, brandName: COMPLETE.brandName }, 'website', 'Website is required'],
    [{ ...COMPLETE, website: 'not a url' }, 'website', 'Must be a valid URL'],
    [{ ...COMPLETE, website: 'acme' }, 'website', 'Must be a valid URL'],
    [{ ...COMPLETE, website: 'javascript:alert(1)' }, 'website', 'Must be a valid URL'],
    [{ ...COMPLETE, website: 'ftp://acme.example.com' }, 'website', 'Must be a valid URL'],
  ])('refuses %j with the spec message and saves nothing', async (body, field, message) => {
    const { user, agent } = await unnamedBrand();
    const res = await agent.patch('/api/user/profile', body);
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBe(message);
    expect(res.body.message).toBe(message);
    expect(await row(user.id)).toMatchObject({ name: null, brandName: null, website: null, approved: false });
  });

  it('reports every missing field at once', async () => {
    const { user, agent } = await unnamedBrand();
    const res = await agent.patch('/api/user/profile', {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      name: 'Name is required',
      brandName: 'Company name is required',
      website: 'Website is required',
    });
    expect((await row(user.id)).name).toBeNull();
  });

  it('saves the profile without a code: the brand waits for approval', async () => {
    const { user, agent } = await unnamedBrand();
    const res = await agent.patch('/api/user/profile', { name: '  Jane Brand ', brandName: 'Acme Coffee', website: 'https://acme.example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...COMPLETE, id: user.id, approved: false, autoApproved: false });
    expect(res.body).not.toHaveProperty('password');
    expect(await row(user.id)).toMatchObject({ ...COMPLETE, approved: false });
    expect((await agent.get('/api/user')).body).toMatchObject({ name: 'Jane Brand', approved: false });
    expect((await agent.get('/api/brand/wallet')).status).toBe(403);
  });

  it('treats an empty invite code as none', async () => {
    const { user, agent } = await unnamedBrand();
    const res = await agent.patch('/api/user/profile', { ...COMPLETE, inviteCode: '   ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ approved: false, autoApproved: false });
    expect(await row(user.id)).toMatchObject({ name: COMPLETE.name, approved: false });
  });

  it.each(['WELCOME-24', 'welcome-24', '  Welcome-24  '])('approves at once with the active code %j (any case, spaces trimmed)', async (inviteCode) => {
    const { user, agent } = await unnamedBrand();
    const res = await agent.patch('/api/user/profile', { ...COMPLETE, inviteCode });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...COMPLETE, approved: true, autoApproved: true });
    expect(await row(user.id)).toMatchObject({ ...COMPLETE, approved: true });
    const wallet = await agent.get('/api/brand/wallet');
    expect(wallet.status).toBe(200);
    expect(wallet.body).toEqual({ balance: '0.00' });
  });

  it.each([
    ['an unknown code', 'NO-SUCH-CODE'],
    ['a deactivated code', 'OLD-CODE'],
    ['a deactivated code in lowercase', ' old-code '],
  ])('refuses %s with a message on inviteCode, saves nothing, and lets the brand correct it', async (_what, inviteCode) => {
    const { user, agent } = await unnamedBrand();
    const res = await agent.patch('/api/user/profile', { ...COMPLETE, inviteCode });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(INVALID_CODE);
    expect(res.body.errors).toEqual({ inviteCode: INVALID_CODE });
    expect(await row(user.id)).toMatchObject({ name: null, brandName: null, website: null, approved: false });
    expect((await agent.get('/api/user')).body.name).toBeNull();

    // corrected with the right code
    const fixed = await agent.patch('/api/user/profile', { ...COMPLETE, inviteCode: activeCode.toLowerCase() });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ approved: true, autoApproved: true });
    expect(await row(user.id)).toMatchObject({ ...COMPLETE, approved: true });
  });

  it('lets a refused brand drop the code and wait for approval instead', async () => {
    const { user, agent } = await unnamedBrand();
    expect((await agent.patch('/api/user/profile', { ...COMPLETE, inviteCode: 'NOPE' })).status).toBe(400);
    const res = await agent.patch('/api/user/profile', COMPLETE);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ approved: false, autoApproved: false });
    expect(await row(user.id)).toMatchObject({ ...COMPLETE, approved: false });
  });

  it('approves a named brand that is still pending when it comes back with a valid code', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.pendingBrand);
    const res = await agent.patch('/api/user/profile', { ...COMPLETE, inviteCode: activeCode });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ approved: true, autoApproved: true });
    expect((await row(user.id)).approved).toBe(true);
  });

  it('[SECURITY] ignores approved, role and email sent in the completion request', async () => {
    const { user, agent } = await unnamedBrand();
    const res = await agent.patch('/api/user/profile', { ...COMPLETE, approved: true, role: 'admin', email: 'new@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ approved: false, autoApproved: false, role: 'brand', email: user.email });
    expect(await row(user.id)).toMatchObject({ approved: false, role: 'brand', email: user.email });
  });

  it('answers 400, not 500, for a body that is not an object', async () => {
    const { user, agent } = await unnamedBrand();
    for (const body of ['just a string', 42, null, [1, 2]]) {
      const res = await agent.patch('/api/user/profile', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await row(user.id)).name).toBeNull();
  });
});

describe('PATCH /api/user/profile: editing the profile', () => {
  it('a brand edits name, brand name and website', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    const edit = { name: 'New Name', brandName: 'New Brand', website: 'https://new.example.org/about' };
    const res = await agent.patch('/api/user/profile', edit);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...edit, approved: true, autoApproved: false });
    expect(await row(user.id)).toMatchObject({ ...edit, approved: true });
  });

  it('a brand may send only the name; the other fields stay', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    const res = await agent.patch('/api/user/profile', { name: 'Only Name' });
    expect(res.status).toBe(200);
    expect(await row(user.id)).toMatchObject({ name: 'Only Name', brandName: user.brandName, website: user.website });
  });

  it.each([
    [{ name: '', brandName: 'B', website: 'https://b.example.com' }, 'name', 'Name is required'],
    [{ name: 'N', brandName: '', website: 'https://b.example.com' }, 'brandName', 'Company name is required'],
    [{ name: 'N', brandName: 'B', website: '' }, 'website', 'Website is required'],
    [{ name: 'N', brandName: 'B', website: 'javascript:alert(1)' }, 'website', 'Must be a valid URL'],
  ])('refuses the edit %j and changes nothing', async (body, field, message) => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    const res = await agent.patch('/api/user/profile', body);
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBe(message);
    expect(await row(user.id)).toEqual(user);
  });

  it('an admin edits only the name: brand name and website sent by an admin are not stored', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.admin);
    const res = await agent.patch('/api/user/profile', { name: 'Ada Lovelace', brandName: 'Sneaky Brand', website: 'https://sneaky.example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Ada Lovelace', brandName: null, website: null, role: 'admin', autoApproved: false });
    expect(await row(user.id)).toMatchObject({ name: 'Ada Lovelace', brandName: null, website: null, role: 'admin' });
  });

  it('an admin cannot use an invite code to become anything else', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.admin);
    const res = await agent.patch('/api/user/profile', { name: 'Ada', inviteCode: activeCode });
    expect(res.status).toBe(200);
    expect(res.body.autoApproved).toBe(false);
    expect(await row(user.id)).toMatchObject({ name: 'Ada', role: 'admin' });
  });

  it('the e-mail cannot be changed: sending one changes nothing', async () => {
    for (const kind of [kinds.approvedBrand, kinds.admin]) {
      const { user, agent } = await signedIn(t.app, t.db, kind);
      const res = await agent.patch('/api/user/profile', { name: 'Renamed', email: 'taken-over@example.com' });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe(user.email);
      expect((await row(user.id)).email).toBe(user.email);
    }
    expect(await t.db.$count(users, eq(users.email, 'taken-over@example.com'))).toBe(0);
  });

  it('[SECURITY] a pending brand cannot approve itself or change its role by editing', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.pendingBrand);
    const res = await agent.patch('/api/user/profile', { name: 'Still Pending', approved: true, role: 'admin' });
    expect(res.status).toBe(200);
    expect(await row(user.id)).toMatchObject({ name: 'Still Pending', approved: false, role: 'brand' });
  });

  it('a visitor gets 401', async () => {
    const res = await new Agent(t.app).patch('/api/user/profile', COMPLETE);
    expect(res.status).toBe(401);
  });
});

describe('PATCH /api/user/profile {avatarUrl}', () => {
  it('stores an /uploads/ image path for both roles and touches nothing else', async () => {
    for (const kind of [kinds.approvedBrand, kinds.admin, kinds.unnamedBrand]) {
      const { user, agent } = await signedIn(t.app, t.db, kind);
      const avatarUrl = '/uploads/0123456789abcdef0123456789abcdef.png';
      const res = await agent.patch('/api/user/profile', { avatarUrl });
      expect(res.status).toBe(200);
      expect(res.body.avatarUrl).toBe(avatarUrl);
      expect(await row(user.id)).toEqual({ ...user, avatarUrl });
    }
  });

  it.each([
    'javascript:alert(1)',
    'https://evil.example.com/a.png',
    '//evil.example.com/a.png',
    'data:image/png;base64,AAAA',
    '/uploads/../etc/passwd.png',
    '/uploads/a.svg',
    '/uploads/a.html',
    '/api/user',
    '',
    42,
  ])('refuses the avatar URL %j and changes nothing', async (avatarUrl) => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    const res = await agent.patch('/api/user/profile', { avatarUrl });
    expect(res.status).toBe(400);
    expect(res.body.errors.avatarUrl).toBeTruthy();
    expect((await row(user.id)).avatarUrl).toBeNull();
  });
});
