import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '../support/app';
import { signedIn } from '../support/factories';
import { removeDemo } from '../../src/server/setup/demo';
import { DEMO_LOGINS, seedDemo } from '../../src/server/setup/seed';
import { inviteCodes, opportunities, savedOpportunities, users } from '../../src/server/db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('npm run db:remove-demo (removeDemo)', () => {
  it("removes the demo accounts with everything that was theirs, down to the shortlist's version row, and leaves a real brand's alone", async () => {
    await seedDemo(t.db);
    const demo = new Agent(t.app);
    expect((await demo.post('/api/login', { email: DEMO_LOGINS.brand.email, password: DEMO_LOGINS.brand.password })).status).toBe(200);
    const real = await signedIn(t.app, t.db);
    const [first, second] = await t.db.select({ id: opportunities.id }).from(opportunities).limit(2);
    // both brands keep a shortlist
    for (const agent of [demo, real.agent]) {
      expect((await agent.put(`/api/brand/saved/${first.id}`)).status).toBeLessThan(300);
    }
    expect((await real.agent.put(`/api/brand/saved/${second.id}`)).status).toBeLessThan(300);
    const [demoBrand] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_LOGINS.brand.email));

    expect(await removeDemo(t.db)).toEqual({ accounts: 2, codes: 1 });

    expect(await t.db.select().from(users).where(eq(users.id, demoBrand.id))).toEqual([]);
    expect(await t.db.select().from(inviteCodes).where(eq(inviteCodes.code, DEMO_LOGINS.inviteCode))).toEqual([]);
    expect(await t.db.select().from(savedOpportunities).where(eq(savedOpportunities.brandId, demoBrand.id))).toEqual([]);
    // the real brand's shortlist is untouched
    expect(await t.db.select().from(savedOpportunities).where(eq(savedOpportunities.brandId, real.user.id))).toHaveLength(2);
    const saved = await real.agent.get('/api/brand/saved');
    expect(saved.status).toBe(200);
    expect(JSON.stringify(saved.body)).toContain(second.id);
    expect(JSON.stringify(saved.body)).toContain(first.id);
    // the demo brand's sign-in went with it
    expect((await demo.get('/api/user')).status).toBe(401);
  });
});
