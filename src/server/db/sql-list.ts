import { sql, type SQL } from 'drizzle-orm';

/**
 * `('a', 'b')` from a list of constants (never user input): for partial-index predicates and the
 * tab predicates that must match them word for word, where a bound parameter would keep the planner
 * from using the index.
 */
export function sqlList(values: readonly string[]): SQL {
  for (const v of values) if (!/^[a-z_]+$/.test(v)) throw new Error(`not a constant: ${v}`);
  return sql.raw(`(${values.map((v) => `'${v}'`).join(', ')})`);
}
