import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from './client';
import { lateCreditSettings } from './schema';

/**
 * Writes LATE_CREDIT_PERCENT, LATE_CREDIT_MAX_PERCENT and LATE_CANCEL_DAYS where SQL reads them
 * (drizzle/0054): a placement's life reads the late cancel's threshold from there. Written only
 * when they differ, so that servers starting together with the same settings write nothing.
 */
export async function writeLateCreditSettings(db: Db, config: Pick<Config, 'LATE_CREDIT_PERCENT' | 'LATE_CREDIT_MAX_PERCENT' | 'LATE_CANCEL_DAYS'>): Promise<void> {
  const s = lateCreditSettings;
  await db
    .update(s)
    .set({ percent: config.LATE_CREDIT_PERCENT, maxPercent: config.LATE_CREDIT_MAX_PERCENT, cancelDays: config.LATE_CANCEL_DAYS })
    .where(
      sql`${s.percent} IS DISTINCT FROM ${config.LATE_CREDIT_PERCENT} OR ${s.maxPercent} IS DISTINCT FROM ${config.LATE_CREDIT_MAX_PERCENT} OR ${s.cancelDays} IS DISTINCT FROM ${config.LATE_CANCEL_DAYS}`,
    );
}
