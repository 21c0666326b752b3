import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from './client';
import { disputeSettings } from './schema';

/**
 * Writes DISPUTE_DAYS where SQL reads it (drizzle/0055): a placement's life computes the content
 * dispute's window from it. Written only when it differs, so that servers starting together with
 * the same settings write nothing.
 */
export async function writeDisputeSettings(db: Db, config: Pick<Config, 'DISPUTE_DAYS'>): Promise<void> {
  const s = disputeSettings;
  await db
    .update(s)
    .set({ disputeDays: config.DISPUTE_DAYS })
    .where(sql`${s.disputeDays} IS DISTINCT FROM ${config.DISPUTE_DAYS}`);
}
