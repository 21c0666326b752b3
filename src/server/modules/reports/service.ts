import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities, orgClients, payments, placements, publications, reports, shares, uploads, users } from '../../db/schema';
import type { Member, Scope } from '../../lib/contract';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { withClaims } from '../../lib/rate-limit';
import type { Limits } from '../../limits';
import { enqueueMail, type Tx } from '../../mail/outbox';
import { DAY_MS } from '../../../shared/constants';
import { csvRows } from '../../../shared/csv';
import { formatUsd } from '../../../shared/money';
import { hidesAmounts, roleCan } from '../../../shared/org';
import {
  linkStatusOf,
  REPORT_COLUMN_LABELS,
  REPORT_STATUS_LABELS,
  type ReportCadence,
  type ReportColumn,
} from '../../../shared/reports';
import type { Report, ReportRequest, Share } from '../../../shared/schemas/reports';
import type { PublicationCheck } from '../../../shared/publication';
import { PARTLY_REFUNDED, isPartlyRefunded } from '../../../shared/payment';
import { refundedSql } from '../ledger/ledger';
import { now as clockNow } from '../../lib/clock';

export const REPORT_NOT_FOUND = 'Report not found';
const LOGO_NOT_FOUND = 'Logo not found: upload it again';
export const SHARE_NOT_FOUND = 'This link has expired or was revoked';
type ReportRow = typeof reports.$inferSelect;

/** A member limited to some clients (decision 035) reports on those only, and sees no price when its role hides amounts. */
const limitedTo = (member: Member) => member.clientIds;

function toReport(r: ReportRow, clientName: string | null): Report {
  return {
    id: r.id,
    name: r.name,
    clientId: r.clientId,
    clientName,
    from: r.fromDay,
    to: r.toDay,
    status: r.status,
    columns: r.columns as ReportColumn[],
    showPrices: r.showPrices,
    whiteLabel: r.whiteLabel,
    cadence: r.cadence,
    recipients: r.recipients,
    lastSentAt: r.lastSentAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** POST /api/org/reports */
export async function createReport(db: Db, member: Member, input: ReportRequest): Promise<{ id: string }> {
  if (input.showPrices && hidesAmounts(member.role, member.clientIds))
    throw forbidden('amounts_hidden', 'Your role does not show prices: make the report without them');
  const allowed = limitedTo(member);
  if (allowed && (!input.clientId || !allowed.includes(input.clientId)))
    throw forbidden('client_scope_required', 'You can report on your clients’ placements only: choose one of them');
  if (input.clientId) {
    const [client] = await db
      .select({ id: orgClients.id })
      .from(orgClients)
      .where(and(eq(orgClients.id, input.clientId), eq(orgClients.organisationId, member.organisationId)));
    if (!client) throw notFound('client_not_found', 'Client not found');
  }
  const wl = input.whiteLabel;
  if (wl?.logoFile && !(await reportLogoOf(db, member.organisationId, wl.logoFile))) throw notFound('logo_not_found', LOGO_NOT_FOUND);
  const [row] = await db
    .insert(reports)
    .values({
      organisationId: member.organisationId,
      name: input.name,
      clientId: input.clientId ?? null,
      fromDay: input.from ?? null,
      toDay: input.to ?? null,
      status: input.status ?? null,
      columns: input.columns,
      showPrices: input.showPrices,
      whiteLabel: wl ? { logoFile: wl.logoFile ?? null, color: wl.color ?? null, footer: wl.footer || null } : null,
      unsubscribeKey: randomBytes(24).toString('base64url'),
      createdBy: member.userId,
    })
    .returning({ id: reports.id });
  return row;
}

/**
 * The stored file of the logo `logoFile` names ("/uploads/<name>"), when it is one this organisation
 * uploaded for its reports, a PNG or JPEG (issue 57): else null, and no report makes, mails or
 * shows it (another organisation's logo, an opportunity's, a message's attachment).
 */
export async function reportLogoOf(db: Db, organisationId: string, logoFile: string | null | undefined): Promise<string | null> {
  const name = /^\/uploads\/([0-9a-f]{32}\.(?:png|jpg))$/.exec(logoFile ?? '')?.[1];
  if (!name) return null;
  const [row] = await db
    .select({ name: uploads.name })
    .from(uploads)
    .where(and(eq(uploads.name, name), eq(uploads.kind, 'report_logo'), eq(uploads.organisationId, organisationId)));
  return row?.name ?? null;
}

/** GET /api/org/reports: the organisation's, newest first (a member limited to clients: theirs). */
export async function listReports(db: Db, member: Member): Promise<Report[]> {
  const allowed = limitedTo(member);
  const rows = await db
    .select({ r: reports, clientName: orgClients.name })
    .from(reports)
    .leftJoin(orgClients, eq(orgClients.id, reports.clientId))
    .where(
      and(
        eq(reports.organisationId, member.organisationId),
        allowed ? (allowed.length ? inArray(reports.clientId, allowed) : sql`false`) : undefined,
      ),
    )
    .orderBy(desc(reports.createdAt))
    .limit(200);
  return rows.map((x) => toReport(x.r, x.clientName));
}

/** The member's report, or 404 (another organisation's, or a client the member does not see). */
export async function reportOf(db: Db, member: Member, id: string): Promise<ReportRow> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.id, id), eq(reports.organisationId, member.organisationId)));
  const allowed = limitedTo(member);
  if (!row || (allowed && (!row.clientId || !allowed.includes(row.clientId)))) throw notFound('report_not_found', REPORT_NOT_FOUND);
  return row;
}

/** One placement of a report, every column's value (the chosen ones are printed). */
export interface ReportLine {
  id: string;
  outlet: string;
  title: string;
  client: string | null;
  status: string;
  orderedAt: Date;
  publishedAt: Date | null;
  liveUrl: string | null;
  linkStatus: string | null;
  lastChecked: Date | null;
  price: string;
}

const LINES_MAX = 5_000;

/** The placements a report covers, newest order first (at most 5,000). */
export async function reportLines(db: Db, report: ReportRow): Promise<ReportLine[]> {
  const rows = await db
    .select({
      id: payments.id,
      outlet: opportunities.outletName,
      title: opportunities.title,
      client: orgClients.name,
      state: placements.state,
      orderedAt: payments.paidAt,
      publishedAt: publications.publishedAt,
      liveUrl: publications.url,
      health: publications.health,
      lastCheck: publications.lastCheck,
      accepted: publications.acceptedProblems,
      price: payments.amount,
      // what went back, from the money ledger (decision 041)
      refunded: refundedSql(payments.id),
    })
    .from(payments)
    .innerJoin(placements, eq(placements.paymentId, payments.id))
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .leftJoin(orgClients, eq(orgClients.id, placements.clientId))
    .leftJoin(publications, eq(publications.placementId, payments.id))
    .where(
      and(
        eq(placements.organisationId, report.organisationId),
        report.clientId ? eq(placements.clientId, report.clientId) : undefined,
        report.status ? eq(placements.state, report.status) : undefined,
        report.fromDay ? sql`${payments.paidAt} >= ${`${report.fromDay}T00:00:00Z`}::timestamptz` : undefined,
        report.toDay
          ? sql`${payments.paidAt} < ${`${report.toDay}T00:00:00Z`}::timestamptz + interval '1 day'`
          : undefined,
      ),
    )
    .orderBy(desc(payments.paidAt), desc(payments.id))
    .limit(LINES_MAX);
  return rows.map((r) => ({
    id: r.id,
    outlet: r.outlet,
    title: r.title,
    client: r.client,
    // a cancellation granted with a part refund is refunded, the rest kept: it says so (issue 57)
    status: r.state === 'refunded' && isPartlyRefunded({ amount: r.price, refundedAmount: r.refunded }) ? PARTLY_REFUNDED : REPORT_STATUS_LABELS[r.state],
    orderedAt: r.orderedAt,
    publishedAt: r.publishedAt,
    liveUrl: r.liveUrl,
    linkStatus: r.health ? linkStatusOf(r.health, r.lastCheck as PublicationCheck | null, r.accepted ?? []) : null,
    lastChecked: (r.lastCheck as PublicationCheck | null)?.checkedAt
      ? new Date((r.lastCheck as PublicationCheck).checkedAt)
      : null,
    price: r.price,
  }));
}

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A column's text in a line. */
export function cell(line: ReportLine, column: ReportColumn): string {
  const v = line[column];
  if (v === null) return '';
  if (v instanceof Date) return day.format(v);
  if (column === 'price') return formatUsd(v);
  return v;
}

/**
 * Who a report is read by, decided when it is read (issue 57): prices only for someone who may see
 * amounts. A member who may not (a client reviewer, decision 035) gets every report without them,
 * whoever made it and whatever its `show_prices` says; so do the pages of links such a member made.
 */
export interface Reader {
  seesAmounts: boolean;
}
export const readerOf = (member: Pick<Member, 'role' | 'clientIds'>): Reader => ({ seesAmounts: !hidesAmounts(member.role, member.clientIds) });
/** Someone outside the organisation (a scheduled report's address): the report as its makers set it. */
const OUTSIDE_READER: Reader = { seesAmounts: true };

/** The columns printed: the chosen ones, never the price without `show_prices`, nor to a reader who sees no amounts. */
export const columnsOf = (report: ReportRow, reader: Reader) =>
  (report.columns as ReportColumn[]).filter((c) => c !== 'price' || (report.showPrices && reader.seesAmounts));

/** GET /api/org/reports/{id}/csv: a header of the chosen columns' names, a line per placement. */
export function reportCsv(report: ReportRow, lines: ReportLine[], reader: Reader): string {
  const columns = columnsOf(report, reader);
  return csvRows([columns.map((c) => REPORT_COLUMN_LABELS[c]), ...lines.map((l) => columns.map((c) => cell(l, c)))]);
}

/** What changed matters for a scheduled report: its lines and columns, less the time of the last check. */
function reportDigest(report: ReportRow, lines: ReportLine[]): string {
  const columns = columnsOf(report, OUTSIDE_READER).filter((c) => c !== 'lastChecked');
  return createHash('sha256')
    .update(JSON.stringify(lines.map((l) => columns.map((c) => cell(l, c)))))
    .digest('hex');
}

/**
 * The mails a schedule's save lets the job send to new addresses (issue 57): every recipient when
 * the cadence is set or changed (the first report goes out at the job's next run), else the ones
 * added; none when it stops.
 */
function recipientsMailed(before: Pick<ReportRow, 'cadence' | 'recipients'>, cadence: ReportCadence | null, recipients: string[]): number {
  if (!cadence) return 0;
  if (cadence !== before.cadence) return recipients.length;
  return recipients.filter((r) => !before.recipients.includes(r)).length;
}

/** PUT /api/org/reports/{id}/schedule: the addresses it adds count against the organisation's hourly limit. */
export async function setSchedule(
  db: Db,
  limits: Limits,
  member: Member,
  id: string,
  input: { cadence: ReportCadence | null; recipients: string[] },
): Promise<Report> {
  const report = await reportOf(db, member, id);
  const recipients = [...new Set(input.recipients.map((r) => r.trim().toLowerCase()))];
  if (input.cadence) await checkRecipients(db, member, report, recipients);
  const mailed = recipientsMailed(report, input.cadence, recipients);
  const claims = mailed > 0 ? [{ limit: limits.reportRecipients, subject: member.organisationId, weight: mailed }] : [];
  const [row] = await withClaims(db, claims, () =>
    db
      .update(reports)
      .set({
        cadence: input.cadence,
        recipients: input.cadence ? recipients : [],
        // a new schedule sends its first report at the job's next run
        ...(input.cadence !== report.cadence ? { lastPeriod: null } : {}),
      })
      .where(eq(reports.id, report.id))
      .returning(),
  );
  const [client] = row.clientId
    ? await db.select({ name: orgClients.name }).from(orgClients).where(eq(orgClients.id, row.clientId))
    : [];
  return toReport(row, client?.name ?? null);
}

/** The organisation's members among these addresses, with the clients each is limited to. */
async function membersAmong(db: Pick<Db, 'select'>, organisationId: string, emails: string[]) {
  if (!emails.length) return [];
  return db
    .select({ email: users.email, clientIds: users.clientIds })
    .from(users)
    .where(and(eq(users.organisationId, organisationId), inArray(users.email, emails)));
}

/** A member limited to clients sees a report only when it is of one of them (decision 035). */
const seesReport = (report: Pick<ReportRow, 'clientId'>, clientIds: string[] | null) =>
  clientIds === null || (report.clientId !== null && clientIds.includes(report.clientId));

/**
 * Who a schedule may mail (issue 57): never a member limited to other clients; and a member who may
 * not see amounts (a client reviewer) mails only the organisation's members, never an outside address.
 */
async function checkRecipients(db: Db, member: Member, report: ReportRow, recipients: string[]) {
  const members = await membersAmong(db, member.organisationId, recipients);
  const blind = members.filter((m) => !seesReport(report, m.clientIds));
  if (blind.length) {
    const message = `${blind.map((m) => m.email).join(', ')} cannot receive this report: ${blind.length === 1 ? 'that member sees' : 'those members see'} only other clients’ placements`;
    throw badRequest('recipient_sees_other_clients', message, { recipients: message });
  }
  if (readerOf(member).seesAmounts) return;
  const known = new Set(members.map((m) => m.email));
  const outside = recipients.filter((r) => !known.has(r));
  if (outside.length)
    throw forbidden(
      'recipients_outside_organisation', `You can send this report only to members of your organisation: ${outside.join(', ')} ${outside.length === 1 ? 'is not one' : 'are not'}`,
    );
}

// ---- unsubscribing from a scheduled report ----

const unsubscribeToken = (report: Pick<ReportRow, 'unsubscribeKey'>, email: string) =>
  createHmac('sha256', report.unsubscribeKey).update(email.toLowerCase()).digest('base64url');

/** The e-mail's unsubscribe link: removes that address from the report's recipients. False: the link is not valid. */
export async function unsubscribe(db: Db, reportId: string, email: string, token: string): Promise<boolean> {
  const [report] = await db.select().from(reports).where(eq(reports.id, reportId));
  if (!report) return false;
  const expected = Buffer.from(unsubscribeToken(report, email));
  const given = Buffer.from(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  await db
    .update(reports)
    .set({ recipients: sql`array_remove(${reports.recipients}, ${email.toLowerCase()})` })
    .where(eq(reports.id, reportId));
  return true;
}

// ---- the schedule ----

/** The period `now` falls in: an ISO week ('2026-W48') or a month ('2026-11'), in UTC. */
export function periodOf(cadence: ReportCadence, now: Date): string {
  if (cadence === 'monthly') return now.toISOString().slice(0, 7);
  // the ISO week: the one holding this week's Thursday, counted in that Thursday's year
  const thursday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  thursday.setUTCDate(thursday.getUTCDate() + 4 - (thursday.getUTCDay() || 7));
  const week = Math.ceil(((thursday.getTime() - Date.UTC(thursday.getUTCFullYear(), 0, 1)) / DAY_MS + 1) / 7);
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/**
 * The job (every 15 minutes): each scheduled report whose period has not been handled is claimed
 * (one conditional UPDATE: one instance wins) and, in the same transaction, mailed to its
 * recipients when its lines changed since the last one sent. Returns the ids of the reports sent.
 */
export async function runScheduledReports(db: Db, now: Date = clockNow()): Promise<string[]> {
  const weekly = periodOf('weekly', now);
  const monthly = periodOf('monthly', now);
  // the reports whose current period has not been handled (reports_scheduled_idx holds the scheduled ones)
  const due = await db
    .select({ id: reports.id, cadence: reports.cadence })
    .from(reports)
    .where(
      sql`(${reports.cadence} = 'weekly' AND ${reports.lastPeriod} IS DISTINCT FROM ${weekly})
        OR (${reports.cadence} = 'monthly' AND ${reports.lastPeriod} IS DISTINCT FROM ${monthly})`,
    )
    .limit(1000);
  const sent: string[] = [];
  for (const d of due) {
    const period = d.cadence === 'weekly' ? weekly : monthly;
    await db.transaction(async (tx) => {
      const [report] = await tx
        .update(reports)
        .set({ lastPeriod: period })
        .where(
          and(
            eq(reports.id, d.id),
            sql`${reports.lastPeriod} IS DISTINCT FROM ${period}`,
            sql`${reports.cadence} IS NOT NULL`,
          ),
        )
        .returning();
      if (!report) return; // another instance took this period
      const lines = await reportLines(tx as unknown as Db, report);
      const digest = reportDigest(report, lines);
      if (digest === report.lastDigest || report.recipients.length === 0) return;
      // a member limited to other clients, as it is now, is not sent this client's report
      const blind = new Set(
        (await membersAmong(tx as unknown as Db, report.organisationId, report.recipients))
          .filter((m) => !seesReport(report, m.clientIds))
          .map((m) => m.email),
      );
      for (const email of report.recipients) {
        if (blind.has(email)) continue;
        await enqueueMail(
          tx as Tx,
          { email },
          {
            kind: 'scheduled_report',
            reportId: report.id,
            name: report.name,
            period,
            lines: lines.length,
            email,
            token: unsubscribeToken(report, email),
          },
        );
      }
      await tx.update(reports).set({ lastDigest: digest, lastSentAt: now }).where(eq(reports.id, report.id));
      sent.push(report.id);
    });
  }
  return sent;
}

// ---- share links ----

const hashShareToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** POST …/shares: a link for the report or the placement, valid `days` days. */
export async function createShare(
  db: Db,
  member: Member,
  subject: { reportId: string } | { placementId: string },
  days: number,
  baseUrl: string,
  now: Date = new Date(),
): Promise<{ id: string; url: string; expiresAt: string }> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  const [row] = await db
    .insert(shares)
    .values({
      tokenHash: hashShareToken(token),
      token,
      organisationId: member.organisationId,
      reportId: 'reportId' in subject ? subject.reportId : null,
      placementId: 'placementId' in subject ? subject.placementId : null,
      expiresAt,
      createdBy: member.userId,
      // its page never shows a price, whatever the role of its maker becomes
      withoutPrices: !readerOf(member).seesAmounts,
    })
    .returning({ id: shares.id });
  return { id: row.id, url: `${baseUrl.replace(/\/$/, '')}/share/${token}`, expiresAt: expiresAt.toISOString() };
}

/** The organisation's shares a member sees: all, or (a member limited to clients) those of its clients' reports and placements. */
function sharesOf(scope: Scope) {
  const client = sql`coalesce(${reports.clientId}, ${placements.clientId})`;
  return and(
    eq(shares.organisationId, scope.organisationId),
    scope.clientIds ? (scope.clientIds.length ? inArray(client, scope.clientIds) : sql`false`) : undefined,
  );
}

/**
 * GET /api/org/shares: the organisation's links, newest first, with their views; an active link's
 * URL to copy again (issue 57) for a member who may make links, and never one that shows prices to
 * a member who may not see amounts.
 */
export async function listShares(db: Db, member: Member, scope: Scope, baseUrl: string, now: Date = new Date()): Promise<Share[]> {
  const mayCopy = roleCan(member.role, 'work');
  const hides = hidesAmounts(member.role, member.clientIds);
  const rows = await db
    .select({ s: shares, reportName: reports.name, showPrices: reports.showPrices, outlet: opportunities.outletName, title: opportunities.title })
    .from(shares)
    .leftJoin(reports, eq(reports.id, shares.reportId))
    .leftJoin(placements, eq(placements.id, shares.placementId))
    .leftJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .where(sharesOf(scope))
    .orderBy(desc(shares.createdAt))
    .limit(500);
  return rows.map(({ s, reportName, showPrices, outlet, title }) => ({
    id: s.id,
    url:
      mayCopy && s.token && !s.revokedAt && s.expiresAt > now && !(hides && showPrices)
        ? `${baseUrl.replace(/\/$/, '')}/share/${s.token}`
        : null,
    kind: s.reportId ? ('report' as const) : ('placement' as const),
    subject: s.reportId ? reportName! : `${outlet} — ${title}`,
    expiresAt: s.expiresAt.toISOString(),
    revokedAt: s.revokedAt?.toISOString() ?? null,
    views: s.views,
    lastViewedAt: s.lastViewedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
  }));
}

/** DELETE /api/org/shares/{id}: the link answers 404 from now on. */
export async function revokeShare(db: Db, scope: Scope, id: string, now: Date = new Date()) {
  const [mine] = await db
    .select({ id: shares.id })
    .from(shares)
    .leftJoin(reports, eq(reports.id, shares.reportId))
    .leftJoin(placements, eq(placements.id, shares.placementId))
    .where(and(eq(shares.id, id), sharesOf(scope)));
  if (!mine) throw notFound('link_not_found', 'Link not found');
  await db
    .update(shares)
    .set({ revokedAt: now, token: null })
    .where(and(eq(shares.id, id), isNull(shares.revokedAt)));
}

/**
 * Who a report's link is read as: the member who made it, as that member may read it now, and
 * never with prices when it was made by one who saw none (issue 57). The page reaches whoever the
 * maker gave the link to: a client reviewer's link is read by its client's people.
 */
export async function shareReader(db: Db, share: Pick<typeof shares.$inferSelect, 'withoutPrices' | 'createdBy'>): Promise<Reader> {
  if (share.withoutPrices) return { seesAmounts: false };
  if (!share.createdBy) return OUTSIDE_READER;
  const [maker] = await db
    .select({ role: users.orgRole, clientIds: users.clientIds })
    .from(users)
    .where(eq(users.id, share.createdBy));
  return maker?.role ? readerOf({ role: maker.role, clientIds: maker.clientIds }) : OUTSIDE_READER;
}

/** The share a token opens (counting the view), or null: unknown, revoked or expired. */
export async function openShare(db: Db, token: string, now: Date = new Date()) {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const [share] = await db
    .update(shares)
    .set({ views: sql`${shares.views} + 1`, lastViewedAt: now })
    .where(and(eq(shares.tokenHash, hashShareToken(token)), isNull(shares.revokedAt), gt(shares.expiresAt, now)))
    .returning();
  return share ?? null;
}
