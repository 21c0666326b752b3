import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { pageQuerySchema, type PageQuery } from '../../shared/schemas/paging';
import { badRequest } from './errors';
import { parse } from './validate';

/**
 * Keyset paging for lists that grow (admin lists, My Articles, Payment History).
 *
 * A list keeps answering a JSON array; `?limit=` (default 50, at most 200) sets the page size and
 * the next page is named by an opaque `?cursor=` in a `Link: <…>; rel="next"` header, as GitHub's
 * API does. The cursor is the (created_at, id) of the last row sent: the next page starts strictly
 * after it, so rows inserted meanwhile never shift a page and nothing is skipped or repeated.
 * created_at travels as text with its microseconds (a JS Date would round them off).
 */

export interface Cursor {
  at: string;
  id: string;
  /** lists that put some rows first (e.g. drafts waiting for the brand) sort by this before created_at */
  rank?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const INVALID_CURSOR = 'This page link is no longer valid; reload the list from the start';

export const encodeCursor = (c: Cursor) =>
  Buffer.from(JSON.stringify(c.rank === undefined ? [c.at, c.id] : [c.at, c.id, c.rank])).toString('base64url');

export function decodeCursor(raw: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(value) && (value.length === 2 || value.length === 3)) {
      const [at, id, rank] = value as unknown[];
      const validRank = rank === undefined || rank === 0 || rank === 1;
      if (typeof at === 'string' && TIMESTAMP.test(at) && !Number.isNaN(Date.parse(at)) && typeof id === 'string' && UUID.test(id) && validRank) {
        return rank === undefined ? { at, id } : { at, id, rank: rank as number };
      }
    }
  } catch {
    // falls through to the 400 below
  }
  throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
}

export interface Page {
  limit: number;
  cursor?: Cursor;
}

/** `?limit=&cursor=` of a request, validated (400 with a readable message otherwise). */
export function pageOf(req: FastifyRequest): Page {
  const q: PageQuery = parse(pageQuerySchema, pickPaging(req.query));
  return { limit: q.limit, cursor: q.cursor === undefined ? undefined : decodeCursor(q.cursor) };
}

function pickPaging(query: unknown): Record<string, unknown> {
  const q = (query ?? {}) as Record<string, unknown>;
  return { limit: q.limit, cursor: q.cursor };
}

/** The row key a cursor is made of, selected beside the row: created_at in UTC with microseconds. */
export const cursorAt = (createdAt: AnyColumn) =>
  sql<string>`to_char(${createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly after the cursor in the list's order (newest first unless `asc`). */
export function after(createdAt: AnyColumn, id: AnyColumn, cursor: Cursor | undefined, asc = false): SQL | undefined {
  if (!cursor) return undefined;
  if (cursor.rank !== undefined) throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return asc
    ? sql`(${createdAt}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
    : sql`(${createdAt}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
}

/**
 * For a list ordered by `rank DESC, created_at DESC, id DESC` (rank 0 or 1, e.g. "needs the
 * brand's action"): the rows after the cursor. A cursor without a rank came from another list.
 */
export function afterRanked(rank: SQL, createdAt: AnyColumn, id: AnyColumn, cursor: Cursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  if (cursor.rank === undefined) throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return sql`(${rank}, ${createdAt}, ${id}) < (${cursor.rank}::int, ${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
}

/**
 * Takes the rows of a query made with `limit + 1` and `cursorAt`: sends at most `limit` of them and,
 * when there was one more, the Link header naming the next page (same path and filters).
 */
export function sendPage<R extends { cursorAt: string; id: string; cursorRank?: number }, T>(
  req: FastifyRequest,
  reply: FastifyReply,
  page: Page,
  rows: R[],
  toJson: (row: R) => T,
): T[] {
  const items = rows.slice(0, page.limit);
  if (rows.length > page.limit) {
    const last = items[items.length - 1];
    const url = new URL(req.url, 'http://x');
    url.searchParams.set('limit', String(page.limit));
    url.searchParams.set('cursor', encodeCursor({ at: last.cursorAt, id: last.id, rank: last.cursorRank }));
    void reply.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
  }
  return items.map(toJson);
}
