import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedStatement } from '../../db/statement';
import { compressOnce, type Encoding } from '../../lib/compress-json';
import { startOfUtcDay } from '../../lib/dates';
import { claimableJsonQuery } from './claimable';
import { catalogueVersionSql } from '../../db/catalogue-version';

/** The statement that builds the list (also run by the bench's ceiling server). */
export const claimableStatement = { name: 'claimable_opportunities', sql: claimableJsonQuery(sql.placeholder('since')) };
const readBody = preparedStatement<{ version: string; body: string }, { since: string }>(claimableStatement.name, claimableStatement.sql);
/** For a caller that has not read the version with its session (the route has). */
const readVersion = preparedStatement<{ version: string }>('catalogue_version', sql`SELECT ${catalogueVersionSql} AS "version"`);

/** One version of the browse list: its JSON, and each compressed form once someone asked for it. */
export interface BrowseList {
  /** catalogue version and day: the list is the same for equal keys (used as the ETag) */
  key: string;
  json: Buffer;
  encoded(encoding: Encoding): Promise<Buffer>;
}

function browseList(key: string, body: string): BrowseList {
  const json = Buffer.from(body);
  const encodings = new Map<Encoding, Promise<Buffer>>();
  return {
    key,
    json,
    encoded(encoding) {
      let bytes = encodings.get(encoding);
      if (!bytes) {
        bytes = compressOnce(json, encoding);
        encodings.set(encoding, bytes);
      }
      return bytes;
    },
  };
}

/**
 * The brands' browse list (GET /api/opportunities), kept ready between changes to the catalogue.
 * Every brand sees the same list, large enough that building and compressing it for every request
 * would dominate the server's work (docs/decisions/010 has the figures). Each request reads the catalogue version (16 rows,
 * schema.ts `catalogueVersions`) and gets the list built for that version and day, building it
 * when there is none; concurrent requests for a new version wait for the one build.
 *
 * Always exact, also with many app servers: any committed change to an opportunity moves the
 * version, in the same commit, and the list is built and versioned in one statement. The day is part
 * of the key because an opportunity leaves the list when its deadline passes, without any change.
 */
export function browseListCache(db: Db) {
  let current: { version: bigint; day: string; list: BrowseList } | undefined;
  let pending: { key: string; list: Promise<BrowseList> } | undefined;

  async function build(since: string, day: string): Promise<BrowseList> {
    const [row] = await readBody(db, { since });
    const version = BigInt(row.version);
    const list = browseList(`${row.version}.${day}`, row.body);
    // a request that started later may have built a newer version already: keep the newest
    if (!current || current.day !== day || version > current.version) current = { version, day, list };
    return list;
  }

  // the day's bounds and key, worked out again only when a request falls outside them
  let today: { from: number; to: number; since: string; day: string } | undefined;

  /** `knownVersion`: the catalogue version this request read already (with its session), if any */
  return async function claimable(now = new Date(), knownVersion?: string): Promise<BrowseList> {
    const t = now.getTime();
    if (!today || t < today.from || t >= today.to) {
      const start = startOfUtcDay(now);
      const since = start.toISOString();
      today = { from: start.getTime(), to: start.getTime() + 86_400_000, since, day: since.slice(0, 10) };
    }
    const { since, day } = today;
    const version = knownVersion ?? (await readVersion(db, {}))[0].version;
    const key = `${version}.${day}`;
    if (current?.list.key === key) return current.list;
    if (pending?.key !== key) {
      const entry = { key, list: build(since, day) };
      pending = entry;
      const done = () => {
        if (pending === entry) pending = undefined;
      };
      entry.list.then(done, done);
    }
    return pending.list;
  };
}
