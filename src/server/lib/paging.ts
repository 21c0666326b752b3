import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { PAGE_LIMIT_MAX } from '../../shared/schemas/paging';
import { badRequest } from './errors';

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
const INVALID_CURSOR = 'This page link is no longer valid; reload the list from the start';

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
  throw badRequest('invalid_cursor', INVALID_CURSOR, { cursor: INVALID_CURSOR });
}

export interface Page {
  limit: number;
  cursor?: Cursor;
}

/** The page a paged route's contract read (lib/contract.ts): `limit` and the decoded `cursor`. */
export function pageFrom(query: { limit: number; cursor?: string }): Page {
  return { limit: query.limit, cursor: query.cursor === undefined ? undefined : decodeCursor(query.cursor) };
}

/** The row key a cursor is made of, selected beside the row: created_at in UTC with microseconds. */
export const cursorAt = (createdAt: AnyColumn) =>
  sql<string>`to_char(${createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly after the cursor in the list's order (newest first unless `asc`). */
export function after(createdAt: AnyColumn, id: AnyColumn, cursor: Cursor | undefined, asc = false): SQL | undefined {
  if (!cursor) return undefined;
  if (cursor.rank !== undefined) throw badRequest('invalid_cursor', INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return asc
    ? sql`(${createdAt}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
    : sql`(${createdAt}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
}

/** The Link header naming the page after `last` (same path and filters), when there is one. */
function linkToNextPage(
  req: FastifyRequest,
  reply: FastifyReply,
  page: Page,
  last: { cursorAt: string; id: string; cursorRank?: number | null },
) {
  const url = new URL(req.url, 'http://x');
  url.searchParams.set('limit', String(page.limit));
  url.searchParams.set('cursor', encodeCursor({ at: last.cursorAt, id: last.id, rank: last.cursorRank ?? undefined }));
  void reply.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
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
  if (rows.length > page.limit) linkToNextPage(req, reply, page, items[items.length - 1]);
  return items.map(toJson);
}

/*
 * Lists on the hot paths are prepared statements whose rows carry their JSON ready-made by the
 * database (`json`, see db/json.ts) beside the row key: Node maps nothing and serialises nothing,
 * it joins the page's texts into the array it answers.
 */

/**
 * Wraps a list's statement (ordered, without LIMIT) so that it fetches `limit` rows (placeholder
 * `limit`, one more than the page). The inner LIMIT is a constant, the most a page can ask for:
 * the statement is prepared once and then run with a plan made without its values (a generic
 * plan), and with an unknown LIMIT the planner would expect a tenth of the table and choose hash
 * joins over all of it (an order of magnitude slower on the bench data). With the constant
 * it plans for at most 201 rows; the outer LIMIT stops it after `limit`, since PostgreSQL pulls
 * rows through the plan one at a time and does not reorder a subquery's ordered rows.
 */
export const limitedPage = (ordered: SQL) =>
  sql`SELECT * FROM (${ordered} LIMIT ${sql.raw(String(PAGE_LIMIT_MAX + 1))}) AS "rows" LIMIT ${sql.placeholder('limit')}`;

/** A row of a page built by the database: the item's JSON text and its key in the list's order. */
export interface JsonPageRow {
  json: string;
  id: string;
  cursorAt: string;
  cursorRank?: number | null;
}

/** `WHERE` part of a list newest first: rows after the cursor (placeholders cursorAt, cursorId). */
export const afterCursor = (createdAt: AnyColumn, id: AnyColumn) =>
  sql`(${createdAt}, ${id}) < (${sql.placeholder('cursorAt')}::timestamptz, ${sql.placeholder('cursorId')}::uuid)`;

/**
 * The values a page's statement binds: the limit (one more row than the page, to know whether
 * another page follows) and the cursor's key. A ranked cursor is refused by an unranked list and
 * the other way round (400), as is anything not made by us.
 */
export function pageValues(page: Page, ranked = false) {
  const { cursor } = page;
  if (cursor && (cursor.rank !== undefined) !== ranked) throw badRequest('invalid_cursor', INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return {
    limit: page.limit + 1,
    ...(cursor ? { cursorAt: cursor.at, cursorId: cursor.id, ...(ranked ? { cursorRank: cursor.rank } : {}) } : {}),
  };
}

/** The JSON array of rows' items. */
function jsonArrayOf(items: readonly { json: string }[]): string {
  let body = '[';
  for (let i = 0; i < items.length; i++) body += (i ? ',' : '') + items[i].json;
  return body + ']';
}

/** Answers a page of JSON rows as a JSON array, with the Link header when another page follows. */
export function sendJsonPage(req: FastifyRequest, reply: FastifyReply, page: Page, rows: JsonPageRow[]) {
  const items = rows.length > page.limit ? rows.slice(0, page.limit) : rows;
  if (rows.length > page.limit) linkToNextPage(req, reply, page, items[items.length - 1]);
  return sendJsonRows(reply, rows, items.length);
}

/** Answers the first `count` of a page's rows as a JSON array. */
export function sendJsonRows(reply: FastifyReply, rows: readonly JsonPageRow[], count: number) {
  void reply.type('application/json; charset=utf-8');
  return reply.send(jsonArrayOf(rows.length > count ? rows.slice(0, count) : rows));
}

/** Answers one item whose JSON the database built (a list's statement asked for one row). */
export function sendJsonItem(reply: FastifyReply, json: string) {
  void reply.type('application/json; charset=utf-8');
  return reply.send(json);
}
