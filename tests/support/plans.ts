import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';

/** A node of EXPLAIN (FORMAT JSON)'s plan, with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The node and every node under it. */
export const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** An id the test made itself, checked before it is written into SQL text. */
export function uuid(id: string) {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`not a uuid: ${id}`);
  return id;
}

/**
 * The plan a pooled connection keeps for a prepared statement (the generic one, made without the
 * values), run once with `params` under EXPLAIN ANALYZE. EXECUTE takes no bound parameters: the
 * values are the test's own, written as literals.
 */
export async function keptPlan(db: Db, statement: { text: string }, params: unknown[]): Promise<PlanNode> {
  const literal = (v: unknown) => `'${String(v).replace(/'/g, "''")}'`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`PREPARE kept_plan_check AS ${statement.text}`));
    const explained = await tx.execute(sql.raw(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE kept_plan_check (${params.map(literal).join(', ')})`));
    await tx.execute(sql`DEALLOCATE kept_plan_check`);
    const json = Object.values((explained as unknown as { rows: Record<string, unknown>[] }).rows[0])[0];
    return (typeof json === 'string' ? JSON.parse(json) : json)[0].Plan as PlanNode;
  });
}
