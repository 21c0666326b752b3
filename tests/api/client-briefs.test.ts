/**
 * Briefs kept apart per client (issue 57): a new brief is pre-filled only from a brief of the same
 * client (or, for a placement bought for no client, from one bought for none), and brief templates
 * belong to the client of the placement they were saved from. A member limited to clients never
 * sees, applies or deletes another client's template, nor the organisation-wide ones.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefTemplates } from '../../src/server/db/schema';
import { createTestApp, type Res, type TestApp } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, sessionIdOf } from '../support/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } });
});
afterAll(() => t.close());

type Signed = Awaited<ReturnType<typeof signedIn>>;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** An agency: its owner and two clients. */
async function agency() {
  const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
  const orgId = owner.user.organisationId!;
  const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client') as { id: string };
  const bolt = ok(await owner.agent.post('/api/org/clients', { name: 'Bolt Bikes' }), 'client') as { id: string };
  const member = (orgRole: 'buyer' | 'reviewer', clientIds: string[] | null) =>
    signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `A ${orgRole}`, organisationId: orgId, orgRole, clientIds });
  return { owner, acme, bolt, member };
}

/** Buys an opportunity for a client (or none) through the test checkout; the placement's id. */
async function buyFor(who: Signed, clientId: string | null) {
  const opp = await createOpportunity(t.db);
  const url = ok(await who.agent.post('/api/payments/checkout', { opportunityId: opp.id, ...(clientId ? { clientId } : {}) }), 'checkout').url as string;
  return ok(await who.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay').paymentId as string;
}

const briefOf = (name: string) => ({
  part1Json: { ...PART1, personOrBrandName: name },
  part2Json: { ...PART2, toneStyleGuidelines: `${name}'s tone` },
});

describe('the brief pre-filled per client', () => {
  it('a client’s new brief starts from that client’s earlier brief only, never another client’s', async () => {
    const { owner, acme, bolt, member } = await agency();
    const acmeFirst = await buyFor(owner, acme.id);
    ok(await owner.agent.post(`/api/brand/brief/${acmeFirst}/submit`, briefOf('Acme Foods')), 'submit');

    // Bolt's first brief: nothing of Acme's, for the owner and for Bolt's own reviewer
    const boltFirst = await buyFor(owner, bolt.id);
    const boltReviewer = await member('reviewer', [bolt.id]);
    for (const who of [owner, boltReviewer]) {
      const res = await who.agent.get(`/api/brand/brief/${boltFirst}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ part1Json: {}, part2Json: {}, source: 'empty', submittedAt: null, version: 'new' });
    }

    // Acme's second brief starts from Acme's first
    const acmeSecond = await buyFor(owner, acme.id);
    const acmeStart = ok(await owner.agent.get(`/api/brand/brief/${acmeSecond}`), 'brief');
    expect(acmeStart).toMatchObject({ source: 'fallback', part1Json: { personOrBrandName: 'Acme Foods' }, part2Json: { toneStyleGuidelines: "Acme Foods's tone" } });

    // once Bolt has a brief, Bolt's next one starts from it, even though Acme's is newer
    ok(await boltReviewer.agent.post(`/api/brand/brief/${boltFirst}/submit`, briefOf('Bolt Bikes')), 'submit');
    ok(await owner.agent.post(`/api/brand/brief/${acmeSecond}/submit`, briefOf('Acme Foods again')), 'submit');
    const boltSecond = await buyFor(owner, bolt.id);
    expect(ok(await boltReviewer.agent.get(`/api/brand/brief/${boltSecond}`), 'brief')).toMatchObject({
      source: 'fallback',
      part1Json: { personOrBrandName: 'Bolt Bikes' },
    });
  });

  it('a placement bought for no client starts only from a brief bought for no client', async () => {
    const { owner, acme } = await agency();
    const forAcme = await buyFor(owner, acme.id);
    ok(await owner.agent.post(`/api/brand/brief/${forAcme}/submit`, briefOf('Acme Foods')), 'submit');
    const own = await buyFor(owner, null);
    expect(ok(await owner.agent.get(`/api/brand/brief/${own}`), 'brief').source).toBe('empty');

    ok(await owner.agent.post(`/api/brand/brief/${own}/submit`, briefOf('The agency')), 'submit');
    ok(await owner.agent.post(`/api/brand/brief/${forAcme}`, { part1Json: { ...PART1, personOrBrandName: 'Acme, edited later' } }), 'save');
    const ownNext = await buyFor(owner, null);
    expect(ok(await owner.agent.get(`/api/brand/brief/${ownNext}`), 'brief')).toMatchObject({
      source: 'fallback',
      part1Json: { personOrBrandName: 'The agency' },
    });
  });
});

type Template = { id: string; name: string; clientId: string | null; part1Json: Record<string, string> };
const names = (res: Res) => (ok(res, 'templates') as Template[]).map((x) => `${x.name}:${x.clientId ?? 'none'}`);

describe('brief templates per client', () => {
  it('a template belongs to the client of its placement; a placement lists its client’s (or, without one, the organisation’s)', async () => {
    const { owner, acme, bolt, member } = await agency();
    const [forAcme, forBolt, forNone] = [await buyFor(owner, acme.id), await buyFor(owner, bolt.id), await buyFor(owner, null)];
    const acmeReviewer = await member('reviewer', [acme.id]);

    const acmeT = ok(
      await acmeReviewer.agent.post('/api/brand/brief-templates', { name: 'Launch', paymentId: forAcme, part1Json: { personOrBrandName: 'Acme Foods' } }),
      'save',
    ) as Template;
    expect(acmeT).toMatchObject({ name: 'Launch', clientId: acme.id, part1Json: { personOrBrandName: 'Acme Foods' } });
    expect((await t.db.select().from(briefTemplates).where(eq(briefTemplates.id, acmeT.id)))[0].clientId).toBe(acme.id);
    // the same name is another client's own template
    const boltT = ok(await owner.agent.post('/api/brand/brief-templates', { name: 'launch', paymentId: forBolt, part1Json: { personOrBrandName: 'Bolt' } }), 'save') as Template;
    expect(boltT.clientId).toBe(bolt.id);
    const houseT = ok(await owner.agent.post('/api/brand/brief-templates', { name: 'House style', paymentId: forNone }), 'save') as Template;
    expect(houseT.clientId).toBeNull();
    // a name is unique per client
    expect((await owner.agent.post('/api/brand/brief-templates', { name: 'LAUNCH', paymentId: forAcme })).status).toBe(409);

    expect(names(await owner.agent.get(`/api/brand/brief-templates?paymentId=${forAcme}`))).toEqual([`Launch:${acme.id}`]);
    expect(names(await owner.agent.get(`/api/brand/brief-templates?paymentId=${forBolt}`))).toEqual([`launch:${bolt.id}`]);
    expect(names(await owner.agent.get(`/api/brand/brief-templates?paymentId=${forNone}`))).toEqual(['House style:none']);
    // the owner's whole list: every one, each with its client
    expect(names(await owner.agent.get('/api/brand/brief-templates')).sort()).toEqual(['House style:none', `Launch:${acme.id}`, `launch:${bolt.id}`].sort());
    expect(ok(await owner.agent.get(`/api/brand/brief-templates/${boltT.id}`), 'one')).toMatchObject({ id: boltT.id, name: 'launch' });
  });

  it('a member limited to clients never sees, applies, saves to or deletes another client’s template (404)', async () => {
    const { owner, acme, bolt, member } = await agency();
    const [forAcme, forBolt, forNone] = [await buyFor(owner, acme.id), await buyFor(owner, bolt.id), await buyFor(owner, null)];
    const acmeT = ok(await owner.agent.post('/api/brand/brief-templates', { name: 'Acme launch', paymentId: forAcme }), 'save') as Template;
    const boltT = ok(await owner.agent.post('/api/brand/brief-templates', { name: 'Bolt launch', paymentId: forBolt, part1Json: { personOrBrandName: 'Bolt secret' } }), 'save') as Template;
    const houseT = ok(await owner.agent.post('/api/brand/brief-templates', { name: 'House style', paymentId: forNone }), 'save') as Template;

    for (const acmeMember of [await member('reviewer', [acme.id]), await member('buyer', [acme.id])]) {
      const list = await acmeMember.agent.get('/api/brand/brief-templates');
      expect(names(list)).toEqual([`Acme launch:${acme.id}`]);
      expect(list.text).not.toContain('Bolt secret');
      expect(names(await acmeMember.agent.get(`/api/brand/brief-templates?paymentId=${forAcme}`))).toEqual([`Acme launch:${acme.id}`]);
      expect((await acmeMember.agent.get(`/api/brand/brief-templates?paymentId=${forBolt}`)).status).toBe(404);
      expect((await acmeMember.agent.get(`/api/brand/brief-templates?paymentId=${forNone}`)).status).toBe(404);

      expect(ok(await acmeMember.agent.get(`/api/brand/brief-templates/${acmeT.id}`), 'own').name).toBe('Acme launch');
      for (const theirs of [boltT, houseT]) {
        const res = await acmeMember.agent.get(`/api/brand/brief-templates/${theirs.id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Brief template not found', code: 'brief_template_not_found' });
        expect(res.text).not.toContain('Bolt secret');
        expect((await acmeMember.agent.delete(`/api/brand/brief-templates/${theirs.id}`)).status).toBe(404);
      }
      // saving from another client's placement, or organisation-wide, is refused and stores nothing
      expect((await acmeMember.agent.post('/api/brand/brief-templates', { name: 'Sneaky', paymentId: forBolt })).status).toBe(404);
      const bare = await acmeMember.agent.post('/api/brand/brief-templates', { name: 'Sneaky' });
      expect(bare.status).toBe(400);
      expect(bare.body.errors).toEqual({ paymentId: 'Save the template from one of your client’s placements' });
    }
    expect((await t.db.select().from(briefTemplates).where(eq(briefTemplates.name, 'Sneaky'))).length).toBe(0);
    // nothing of Bolt's or the organisation's was deleted
    expect(names(await owner.agent.get('/api/brand/brief-templates')).length).toBe(3);

    // another organisation's template is as missing as one that never was
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await stranger.agent.get(`/api/brand/brief-templates/${acmeT.id}`)).status).toBe(404);
    expect((await stranger.agent.get(`/api/brand/brief-templates?paymentId=${forAcme}`)).status).toBe(404);
  });
});
