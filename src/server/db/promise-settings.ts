import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from './client';
import { promiseSettings } from './schema';

/**
 * Writes PROMISE_MIN_DELIVERIES and BRIEF_DAYS where the database's promise reads them (drizzle/0047):
 * the placements' trigger fixes a promise without the fulfilment code passing settings in. Written
 * only when they differ, so that servers starting together with the same settings write nothing; a
 * new minimum counts every outlet's record again (a trigger).
 */
export async function writePromiseSettings(db: Db, config: Pick<Config, 'PROMISE_MIN_DELIVERIES' | 'BRIEF_DAYS'>): Promise<void> {
  await db
    .update(promiseSettings)
    .set({ minDeliveries: config.PROMISE_MIN_DELIVERIES, briefDays: config.BRIEF_DAYS })
    .where(
      sql`${promiseSettings.minDeliveries} IS DISTINCT FROM ${config.PROMISE_MIN_DELIVERIES} OR ${promiseSettings.briefDays} IS DISTINCT FROM ${config.BRIEF_DAYS}`,
    );
}
