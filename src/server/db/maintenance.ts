import type { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database's upkeep: what autovacuum does on a PostgreSQL server. PGlite runs one
 * backend and no background workers, so without this its tables are never analyzed (the planner
 * guesses every row count from the table's size) and the space of updated and deleted rows is
 * never reused. VACUUM on a table with nothing to clean skips it by the visibility map; ANALYZE
 * reads a sample of each table, not all of it.
 */
export async function maintainEmbeddedDatabase(pglite: PGlite): Promise<void> {
  await pglite.query('VACUUM (ANALYZE)');
}
