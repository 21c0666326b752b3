import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

const KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * `json_build_object('key', value, …)`: an API object built by the database, keys in the order
 * given (write them in the order of the matching TypeScript shape). Values must already be what
 * the API sends: money as text (`::text`), timestamps through `isoUtc`, nested objects through
 * `jsonObject` again; a NULL becomes null. Name the TypeScript shape (`jsonObject<ProjectPayment>`)
 * and the compiler checks that every key of it is there and no other.
 */
export function jsonObject<Shape = Record<string, unknown>>(fields: Record<keyof Shape & string, SQLWrapper>): SQL {
  const pairs = Object.entries<SQLWrapper>(fields).map(([key, value]) => {
    if (!KEY.test(key)) throw new Error(`not a JSON key for SQL: ${key}`);
    return sql`${sql.raw(`'${key}'`)}, ${value}`;
  });
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}
