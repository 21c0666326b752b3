import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from './client';
import { promiseSettings } from './schema';
import { DRAFT_DUE_DAYS_DEFAULT } from '../../shared/constants';
import { EDIT_DAYS_DEFAULT, REVIEW_DAYS_DEFAULT } from '../../shared/stage-clock';

/**
 * Writes PROMISE_MIN_DELIVERIES, BRIEF_DAYS (and the stage clocks' REVIEW_DAYS, EDIT_DAYS, decision 048) where the database's promise reads them (drizzle/0047):
 * the placements' trigger fixes a promise without the fulfilment code passing settings in. Written
 * only when they differ, so that servers starting together with the same settings write nothing; a
 * new minimum counts every outlet's record again (a trigger).
 */
export async function writePromiseSettings(
  db: Db,
  config: Pick<Config, 'PROMISE_MIN_DELIVERIES' | 'BRIEF_DAYS'> & Partial<Pick<Config, 'REVIEW_DAYS' | 'EDIT_DAYS'>>,
): Promise<void> {
  const reviewDays = config.REVIEW_DAYS ?? REVIEW_DAYS_DEFAULT;
  const editDays = config.EDIT_DAYS ?? EDIT_DAYS_DEFAULT;
  await db
    .update(promiseSettings)
    .set({ minDeliveries: config.PROMISE_MIN_DELIVERIES, briefDays: config.BRIEF_DAYS, reviewDays, editDays, draftDays: DRAFT_DUE_DAYS_DEFAULT })
    .where(
      sql`${promiseSettings.minDeliveries} IS DISTINCT FROM ${config.PROMISE_MIN_DELIVERIES} OR ${promiseSettings.briefDays} IS DISTINCT FROM ${config.BRIEF_DAYS}
        OR ${promiseSettings.reviewDays} IS DISTINCT FROM ${reviewDays} OR ${promiseSettings.editDays} IS DISTINCT FROM ${editDays}
        OR ${promiseSettings.draftDays} IS DISTINCT FROM ${DRAFT_DUE_DAYS_DEFAULT}`,
    );
}
