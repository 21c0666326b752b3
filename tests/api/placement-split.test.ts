/**
 * Issue 44: the placement (the work) has its own table, apart from its payment (the money). A paid
 * checkout makes both, with one id; the placement's state moves with the payment's status, in the
 * same transaction, on release and on refund; migration 0023 moved every existing payment's draft,
 * review and work rows to a placement without losing or changing any of them.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { addBusinessDays } from '../support/business-days';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placements } from '../../src/server/db/schema';
import { createPglite } from '../../src/server/db/pglite';
import { migrationsDir } from '../../src/server/paths';
import type { RefundRequest } from '../../src/server/providers/provider';
import { kinds, signedIn } from '../support/factories';
import {
  createOpportunity,
  createPaymentsTestApp,
  paymentsOf,
  sessionIdOf,
  spyingLocalProvider,
  type PaymentsTestApp,
} from '../support/payments';
import { placedPaymentRow } from '../support/placements';
import { submittedBrief } from '../support/content';

const refunds: RefundRequest[] = [];
let t: PaymentsTestApp;
beforeAll(async () => {
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds) });
});
afterAll(() => t?.close());

const placementOf = async (paymentId: string) =>
  (await t.db.select().from(placements).where(eq(placements.paymentId, paymentId)))[0];

async function bought() {
  const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
  const opp = await createOpportunity(t.db, { maxSlots: 3 });
  const claim = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
  expect(claim.status).toBe(200);
  const paid = await brand.agent.post(`/api/payments/checkout/${sessionIdOf(claim.body.url)}/pay`);
  expect(paid.status).toBe(200);
  const [payment] = await paymentsOf(t.db, opp.id);
  return { brand, opp, payment };
}

describe('a paid checkout makes a payment and its placement', () => {
  it('one placement per payment, with its id, the brand and opportunity, in progress, awaiting the brief', async () => {
    const { brand, opp, payment } = await bought();
    expect(await placementOf(payment.id)).toEqual({
      id: payment.id,
      paymentId: payment.id,
      brandId: brand.user.id,
      organisationId: brand.user.organisationId,
      clientId: null,
      opportunityId: opp.id,
      state: 'in_progress',
      declinedAt: null,
      declineReason: null,
      swapBy: null,
      writingStartedAt: null,
      revisionsUsed: 0,
      revisionsIncluded: 2,
      draftDocumentUrl: null,
      draftDocumentFile: null,
      draftReviewStatus: 'awaiting_brand_brief',
      brandFeedback: null,
      createdAt: payment.createdAt,
      // issue 58: it entered its first state (Brief pending) when it was made (drizzle/0045)
      stateSince: payment.createdAt,
      // issue 59: no admin has acted on it; its opportunity lists no turnaround and its outlet
      // has no record, so the database fixed no promise
      assigneeId: null,
      promisedBy: null,
      usuallyBy: null,
      promiseBasis: null,
      // its first stage clock (drizzle/0053): the brand's brief, BRIEF_DAYS (3) business days from payment
      clockStage: 'brief',
      clockStartedAt: payment.createdAt,
      clockDueAt: addBusinessDays(payment.createdAt, 3),
      clockPausedAt: null,
      promiseMovedDays: 0,
      promiseMoves: [],
    });
    // the brand's My Articles item is the placement, keyed by the spec's paymentId
    const res = await brand.agent.get(`/api/brand/my-articles/${payment.id}`);
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({
      id: payment.id,
      status: 'paid',
      draftReviewStatus: 'awaiting_brand_brief',
    });
  });
});

describe("the placement's state follows its payment's status", () => {
  it('release: paid → released and in_progress → published, together', async () => {
    const { payment } = await bought();
    const admin = await signedIn(t.app, t.db, kinds.admin);
    expect((await admin.agent.post(`/api/admin/payments/${payment.id}/release`)).status).toBe(200);
    expect(await placedPaymentRow(t.db, payment.id)).toMatchObject({ status: 'released', state: 'published' });
  });

  it('refund of a held payment: paid → refunded and in_progress → refunded, together', async () => {
    const { payment } = await bought();
    const admin = await signedIn(t.app, t.db, kinds.admin);
    expect((await admin.agent.post(`/api/admin/payments/${payment.id}/refund`)).status).toBe(200);
    expect(await placedPaymentRow(t.db, payment.id)).toMatchObject({ status: 'refunded', state: 'refunded' });
  });

  it('refund of a published one: released → refunded and published → refunded; its live article reads refunded', async () => {
    const { payment } = await bought();
    const admin = await signedIn(t.app, t.db, kinds.admin);
    expect((await admin.agent.post(`/api/admin/payments/${payment.id}/release`)).status).toBe(200);
    expect((await admin.agent.post(`/api/admin/payments/${payment.id}/refund`)).status).toBe(200);
    expect(await placedPaymentRow(t.db, payment.id)).toMatchObject({ status: 'refunded', state: 'refunded' });
    const result = await t.db.execute(sql`SELECT health FROM publications WHERE placement_id = ${payment.id}`);
    const [pub] = (result as unknown as { rows: { health: string }[] }).rows;
    expect(pub).toEqual({ health: 'refunded' });
  });

  it('a draft moves the placement, not the payment: the brief, the draft and the review live on the placement', async () => {
    const { brand, payment } = await bought();
    const admin = await signedIn(t.app, t.db, kinds.admin);
    await submittedBrief(t.db, payment);
    const attached = await admin.agent.patch(`/api/admin/payments/${payment.id}/status`, {
      draftDocumentUrl: 'https://docs.google.com/document/d/split',
    });
    expect(attached.status).toBe(200);
    expect(attached.body).toMatchObject({ id: payment.id, status: 'paid', draftReviewStatus: 'pending_brand_review' });
    expect(
      (await brand.agent.post(`/api/brand/projects/${payment.id}/request-edits`, { feedback: 'Shorter' })).status,
    ).toBe(200);
    expect(await placementOf(payment.id)).toMatchObject({
      state: 'in_progress',
      draftReviewStatus: 'edits_requested',
      draftDocumentUrl: 'https://docs.google.com/document/d/split',
      brandFeedback: 'Shorter',
    });
  });
});

describe('migration 0023 moves the work of existing payments to placements', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'byline-0023-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every payment gets its placement (same id, its draft, review and state); briefs, messages, marks, timeline and publications follow', async () => {
    // the migrations up to 0022: a copy of the folder whose journal stops there
    const before = path.join(dir, 'before');
    cpSync(migrationsDir, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0023_placements');
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

    const pglite = await createPglite();
    try {
      const db = drizzle(pglite);
      await migrate(db, { migrationsFolder: before });
      const q = (text: string) => pglite.exec(text);
      await q(`
        INSERT INTO users (id, email, password, role, name, brand_name, approved)
          VALUES ('00000000-0000-4000-8000-0000000000b1', 'b@example.com', 'x', 'brand', 'Bea', 'Acme', true),
                 ('00000000-0000-4000-8000-0000000000a1', 'a@example.com', 'x', 'admin', 'Ada', NULL, true);
        INSERT INTO opportunities (id, outlet_name, title, description, type, price_usd, status, max_slots, filled_slots)
          VALUES ('00000000-0000-4000-8000-000000000001', 'Outlet', 'Story', 'About it', ARRAY['editorial_feature'], 100, 'available', 5, 3);
        INSERT INTO payments (id, brand_id, opportunity_id, stripe_payment_id, provider_session_id, amount, status,
                              draft_document_url, draft_document_file, draft_review_status, brand_feedback, created_at)
          VALUES ('00000000-0000-4000-8000-00000000aa01', '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000001',
                  'pi_1', 'cs_1', 100, 'paid', 'https://docs.example/1', NULL, 'edits_requested', 'Shorter', '2026-01-01T00:00:00Z'),
                 ('00000000-0000-4000-8000-00000000aa02', '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000001',
                  'pi_2', 'cs_2', 100, 'released', NULL, '/api/files/d2.pdf', 'approved', NULL, '2026-01-02T00:00:00Z'),
                 ('00000000-0000-4000-8000-00000000aa03', '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000001',
                  'pi_3', 'cs_3', 100, 'refunded', NULL, NULL, 'awaiting_brand_brief', NULL, '2026-01-03T00:00:00Z');
        INSERT INTO briefs (brand_id, opportunity_id, payment_id, part1_json, part2_json)
          VALUES ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-00000000aa01', '{"personOrBrandName":"Acme"}', '{}');
        INSERT INTO placement_messages (payment_id, side, author_id, text)
          VALUES ('00000000-0000-4000-8000-00000000aa01', 'brand', '00000000-0000-4000-8000-0000000000b1', 'Hello');
        INSERT INTO placement_events (payment_id, kind, actor_type, actor_name)
          VALUES ('00000000-0000-4000-8000-00000000aa02', 'published', 'admin', 'Ada');
        INSERT INTO publications (payment_id, url, published_at, guarantee_ends_at)
          VALUES ('00000000-0000-4000-8000-00000000aa02', 'https://outlet.example/2', now(), now() + interval '90 days');
      `);

      await migrate(db, { migrationsFolder: migrationsDir });

      const rows = async (text: string) => (await pglite.query<Record<string, unknown>>(text)).rows;
      expect(
        await rows(`SELECT id, payment_id, brand_id, state, draft_document_url, draft_document_file, draft_review_status, brand_feedback,
                           created_at = (SELECT created_at FROM payments p WHERE p.id = placements.id) AS same_created
                    FROM placements ORDER BY id`),
      ).toEqual([
        {
          id: '00000000-0000-4000-8000-00000000aa01',
          payment_id: '00000000-0000-4000-8000-00000000aa01',
          brand_id: '00000000-0000-4000-8000-0000000000b1',
          state: 'in_progress',
          draft_document_url: 'https://docs.example/1',
          draft_document_file: null,
          draft_review_status: 'edits_requested',
          brand_feedback: 'Shorter',
          same_created: true,
        },
        {
          id: '00000000-0000-4000-8000-00000000aa02',
          payment_id: '00000000-0000-4000-8000-00000000aa02',
          brand_id: '00000000-0000-4000-8000-0000000000b1',
          state: 'published',
          draft_document_url: null,
          draft_document_file: '/api/files/d2.pdf',
          draft_review_status: 'approved',
          brand_feedback: null,
          same_created: true,
        },
        {
          id: '00000000-0000-4000-8000-00000000aa03',
          payment_id: '00000000-0000-4000-8000-00000000aa03',
          brand_id: '00000000-0000-4000-8000-0000000000b1',
          state: 'refunded',
          draft_document_url: null,
          draft_document_file: null,
          draft_review_status: 'awaiting_brand_brief',
          brand_feedback: null,
          same_created: true,
        },
      ]);
      expect(await rows(`SELECT placement_id FROM briefs`)).toEqual([
        { placement_id: '00000000-0000-4000-8000-00000000aa01' },
      ]);
      expect(await rows(`SELECT placement_id, text FROM placement_messages`)).toEqual([
        { placement_id: '00000000-0000-4000-8000-00000000aa01', text: 'Hello' },
      ]);
      expect(await rows(`SELECT placement_id, kind FROM placement_events`)).toEqual([
        { placement_id: '00000000-0000-4000-8000-00000000aa02', kind: 'published' },
      ]);
      expect(await rows(`SELECT placement_id FROM publications`)).toEqual([
        { placement_id: '00000000-0000-4000-8000-00000000aa02' },
      ]);
      // the unread mark made by migration 0014's trigger moved too, and the trigger writes the renamed column
      expect(await rows(`SELECT placement_id, side FROM conversation_reads`)).toEqual([
        { placement_id: '00000000-0000-4000-8000-00000000aa01', side: 'admin' },
      ]);
      await q(`INSERT INTO placement_messages (placement_id, side, author_id, text)
        VALUES ('00000000-0000-4000-8000-00000000aa01', 'admin', '00000000-0000-4000-8000-0000000000a1', 'Hi')`);
      expect(await rows(`SELECT placement_id, side FROM conversation_reads ORDER BY side`)).toEqual([
        { placement_id: '00000000-0000-4000-8000-00000000aa01', side: 'admin' },
        { placement_id: '00000000-0000-4000-8000-00000000aa01', side: 'brand' },
      ]);
      // the money stayed on the payments, without the work's columns
      expect(
        (
          await rows(
            `SELECT column_name FROM information_schema.columns WHERE table_name = 'payments' AND column_name LIKE 'draft%'`,
          )
        ).length,
      ).toBe(0);
    } finally {
      await pglite.close();
    }
  });
});
