import { sql } from 'drizzle-orm';
import { clockNowSql } from './statement';
import { AT_RISK_SHARE } from '../../shared/stage-clock';
import { placements } from './schema';

/**
 * The stage clocks' states in SQL (decision 048), over the clock's columns (drizzle/0053) against
 * clock_now(): late past due, at risk with AT_RISK_SHARE of the stage's time left; a paused clock
 * is neither. The same rule as shared/stage-clock.ts `clockStateOf`, which the answers use.
 */
export const clockStateSql = {
  late: sql`(${placements.clockPausedAt} IS NULL AND ${placements.clockDueAt} < ${clockNowSql})`,
  at_risk: sql`(${placements.clockPausedAt} IS NULL AND ${placements.clockDueAt} >= ${clockNowSql}
    AND ${placements.clockDueAt} - ${clockNowSql} <= (${placements.clockDueAt} - ${placements.clockStartedAt}) * ${sql.raw(String(AT_RISK_SHARE))})`,
} as const;
