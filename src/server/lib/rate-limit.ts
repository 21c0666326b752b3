import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { preparedStatement } from '../db/statement';
import type { Db } from '../db/client';
import { rateLimitHits } from '../db/schema';
import type { LimitSetting } from '../config';
import { DomainError } from './errors';

/** A limit as it is enforced: what it counts, how much per window, and what the refusal says. */
export interface Limit extends LimitSetting {
  bucket: string;
  /** the 429's message, given "in 12 minutes" */
  message: (tryAgainIn: string) => string;
}

export interface Claim {
  limit: Limit;
  subject: string;
  /** how much this request counts (1, or an upload's bytes); 0 only checks */
  weight?: number;
}

/** "in 45 seconds", "in 1 minute", "in an hour", "in 3 hours": when the oldest counted event leaves the window. */
export function tryAgainIn(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `in ${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  if (m === 60) return 'in an hour';
  if (m < 120) return `in ${m} minute${m === 1 ? '' : 's'}`;
  const h = Math.ceil(m / 60);
  return `in ${h} hours`;
}

export class RateLimitError extends DomainError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', 'rate_limited', message);
  }
}

const claimStatement = preparedStatement<
  { refused: number; retry_after_ms: string; ids: string[] | null },
  { buckets: string[]; subjects: string[]; weights: number[]; maxes: number[]; windows: number[]; now: string }
>(
  'claim_limits',
  sql`SELECT refused, retry_after_ms::text AS retry_after_ms, ids::text[] AS ids FROM claim_limits(
    ${sql.placeholder('buckets')}::text[], ${sql.placeholder('subjects')}::text[], ${sql.placeholder('weights')}::bigint[],
    ${sql.placeholder('maxes')}::bigint[], ${sql.placeholder('windows')}::bigint[], ${sql.placeholder('now')}::timestamptz)`,
);

/**
 * Counts this request against every limit in `claims`, or refuses it (429) without counting
 * anything when one is used up. Atomic across requests and app instances, in one round trip: the
 * database function `claim_limits` (migration 0009) takes a transaction-scoped advisory lock per
 * (limit, subject), reads the counts after them and records the events, so 100 concurrent requests
 * let exactly the limit through. Returns the ids of the counted events (to give them back with
 * `releaseClaims` when the request turns out not to count, e.g. a sign-in that succeeded).
 */
export async function claimLimits(db: Db, claims: Claim[], now: Date = new Date()): Promise<number[]> {
  if (!claims.length) return [];
  // one lock order for everyone: two requests never wait on each other's second lock
  const sorted = [...claims].sort((a, b) => lockKey(a).localeCompare(lockKey(b)));
  const [row] = await claimStatement(db, {
    buckets: sorted.map((c) => c.limit.bucket),
    subjects: sorted.map((c) => c.subject),
    weights: sorted.map((c) => c.weight ?? 1),
    maxes: sorted.map((c) => c.limit.max),
    windows: sorted.map((c) => c.limit.windowMs),
    now: now.toISOString(),
  });
  if (row.refused > 0) {
    const seconds = Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000));
    throw new RateLimitError(sorted[row.refused - 1].limit.message(tryAgainIn(seconds)), seconds);
  }
  return (row.ids ?? []).map(Number);
}

const lockKey = (c: Claim) => `${c.limit.bucket}\n${c.subject}`;

/**
 * Does `work` with `claims` counted first (refused with 429 before it starts when one is used up),
 * and gives them back when the work is refused after all: only what was done counts (issue 57: an
 * invitation to an address that is already a member's mails nothing).
 */
export async function withClaims<T>(db: Db, claims: Claim[], work: () => Promise<T>): Promise<T> {
  const claimed = await claimLimits(db, claims);
  try {
    return await work();
  } catch (err) {
    await releaseClaims(db, claimed);
    throw err;
  }
}

/** Gives counted events back (the request did not count after all). */
export async function releaseClaims(db: Pick<Db, 'delete'>, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, ids));
}

/** How much of a limit a subject has used in its window (e.g. failed sign-ins of one account from anywhere). */
export async function usedOf(db: Db, bucket: string, subject: string, windowMs: number, now: Date = new Date()): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${rateLimitHits.weight}), 0)::text` })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, bucket), eq(rateLimitHits.subject, subject), gt(rateLimitHits.at, new Date(now.getTime() - windowMs))));
  return Number(row?.used ?? 0);
}

/** Drops counted events older than any window (the longest is a day): the every-hour job. */
export async function pruneRateLimitHits(db: Db, now: Date = new Date(), keepMs = 2 * 86_400_000): Promise<void> {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.at, new Date(now.getTime() - keepMs)));
}
