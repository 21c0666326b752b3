import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedStatement } from '../../db/statement';
import { compress, type Encoding } from '../../lib/compress-json';
import { startOfUtcDay } from './service';
import { claimableJsonQuery } from './claimable';
import { catalogueVersionSql } from '../../db/catalogue-version';

/** The statements of a request for the browse list (also run by the bench's ceiling server). */
export const browseStatements = {
  version: { name: 'catalogue_version', sql: sql`SELECT ${catalogueVersionSql} AS "version"` },
  body: { name: 'claimable_opportunities', sql: claimableJsonQuery(sql.placeholder('since')) },
};
const readVersion = preparedStatement<{ version: string }>(browseStatements.version.name, browseStatements.version.sql);
const readBody = preparedStatement<{ version: string; body: string }, { since: string }>(browseStatements.body.name, browseStatements.body.sql);

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
        bytes = compress(json, encoding, 'small');
        encodings.set(encoding, bytes);
      }
      return bytes;
    },
  };
}

/**
 * The brands' browse list (GET /api/opportunities), kept ready between changes to the catalogue.
 * Every brand sees the same list: ~1,000 opportunities, ~0.5 MB of JSON that takes the database
 * ~15 ms to build and ~5 ms more to compress. Each request reads the catalogue version (16 rows,
 * schema.ts `catalogueVersions`) and gets the list built for that version and day, building it
 * when there is none; concurrent requests for a new version wait for the one build.
 *
 * Always exact, also with many app servers: any committed change to an opportunity moves the
 * version, in the same commit, and the list is built and versioned in one statement. The day is part
 * of the key because an opportunity leaves the list when its deadline passes, without any change.
 */
export function browseListCache(db: Db) {
  let current: { version: bigint; list: BrowseList } | undefined;
  let pending: { key: string; list: Promise<BrowseList> } | undefined;

  async function build(since: string): Promise<BrowseList> {
    const [row] = await readBody(db, { since });
    const list = browseList(`${row.version}.${since.slice(0, 10)}`, row.body);
    const version = BigInt(row.version);
    // a request that started later may have built a newer version already: keep the newest
    if (!current || version > current.version || !current.list.key.endsWith(since.slice(0, 10))) current = { version, list };
    return list;
  }

  /** `version`: the catalogue version read in this request already (with its session), if any */
  return async function claimable(now = new Date(), knownVersion?: string): Promise<BrowseList> {
    const since = startOfUtcDay(now).toISOString();
    const version = knownVersion ?? (await readVersion(db, {}))[0].version;
    const key = `${version}.${since.slice(0, 10)}`;
    if (current?.list.key === key) return current.list;
    if (pending?.key !== key) {
      const entry = { key, list: build(since) };
      pending = entry;
      const done = () => {
        if (pending === entry) pending = undefined;
      };
      entry.list.then(done, done);
    }
    return pending.list;
  };
}
