import { parse } from 'csv-parse/sync';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outletMetrics, outlets } from '../../db/schema';
import { startOfUtcDay } from '../../lib/dates';
import { DAY_MS } from '../../../shared/constants';
import { METRIC_STALE_DAYS, outletHost, type ImportSource, type OutletMetric } from '../../../shared/outlets';
import type { MetricsImportResult } from '../../../shared/schemas/outlets';

/**
 * Outlet metrics from the CSV exports of Ahrefs, Moz and Semrush (issue 48): the column names each
 * tool has used (compared lower case, punctuation as spaces), the website column matched to outlets
 * by host. A file is applied whole or not at all: any bad row refuses it, with every bad row's line.
 */

const norm = (header: string) =>
  header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** The website column, whichever tool. */
const HOST_HEADERS = [
  'target',
  'domain',
  'url',
  'root domain',
  'website',
  'site',
  'target url',
  'domain name',
  'page url',
];
/** The day the values were true on, when the export says; otherwise the day of the import. */
const DATE_HEADERS = ['date', 'as of', 'export date', 'report date', 'database date'];

const METRIC_HEADERS: Record<ImportSource, Partial<Record<OutletMetric, string[]>>> = {
  ahrefs: {
    dr: ['domain rating', 'dr'],
    organicTraffic: ['organic traffic', 'org traffic', 'organic search traffic', 'traffic'],
    referringDomains: ['referring domains', 'ref domains', 'refdomains', 'referring domains dofollow'],
  },
  moz: {
    da: ['domain authority', 'da'],
    spamScore: ['spam score', 'ss'],
    referringDomains: ['linking root domains', 'linking domains', 'root domains'],
  },
  semrush: {
    organicTraffic: ['organic traffic', 'organic search traffic', 'traffic'],
    referringDomains: ['referring domains', 'ref domains', 'domains'],
  },
};

const TOOL_NAMES: Record<ImportSource, string> = { ahrefs: 'Ahrefs', moz: 'Moz', semrush: 'Semrush' };
/** Columns only one tool's exports have: a file with another's and none of the chosen one's was exported by that other. */
const SIGNATURES: Record<ImportSource, string[]> = {
  ahrefs: ['domain rating', 'dr', 'ahrefs rank', 'ur'],
  moz: ['domain authority', 'da', 'page authority', 'spam score', 'linking root domains'],
  semrush: ['authority score', 'semrush rank'],
};
const SCORES: OutletMetric[] = ['da', 'dr', 'spamScore'];
/** Cells that mean "no value" in the tools' exports. */
const EMPTY = new Set(['', '-', '—', 'n/a', 'na', 'null', 'none']);

/** A file refused whole, before any row is read against the outlets: unusable, or too large (too many rows). */
export class ImportFileError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid' | 'too_large' = 'invalid',
  ) {
    super(message);
  }
}

/** The data rows one import reads at most (issue 57): an export of 5,000 outlets is a tenth of it. */
const IMPORT_MAX_ROWS = 50_000;

interface Row {
  line: number;
  host: string;
  asOf: Date;
  values: { metric: OutletMetric; value: number }[];
}

/** Text of the file: UTF-16 (Ahrefs' "for Excel" export) or UTF-8, with or without a byte order mark. */
function decode(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/** Comma, semicolon or tab: whichever the header line has most of. */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length] as const);
  return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

function parseDay(text: string): Date | null {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  const d = iso ? new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]))) : new Date(`${t} UTC`);
  return Number.isNaN(d.getTime()) ? null : startOfUtcDay(d);
}

/** A number as the tools print it: "12,345", "1 234", "12.5", "3%". Null: not a number. */
function parseNumber(text: string): number | null {
  const t = text
    .trim()
    .replace(/[,\s']/g, '')
    .replace(/%$/, '');
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : null;
}

/** Reads the export: its rows, and the line and reason of every row that cannot be used. */
function readExport(
  bytes: Buffer,
  source: ImportSource,
  today: Date,
): { rows: Row[]; errors: { line: number; message: string }[] } {
  const text = decode(bytes);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      // the header, the rows allowed and one more, which refuses the file: the rest is never read
      to: IMPORT_MAX_ROWS + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    throw new ImportFileError(`This file could not be read as CSV: ${(err as Error).message}`);
  }
  if (records.length === 0) throw new ImportFileError('The file is empty');
  if (records.length - 1 > IMPORT_MAX_ROWS)
    throw new ImportFileError(
      `This file has more than ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows: split it into files of at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows and import each`,
      'too_large',
    );
  const headers = records[0].record.map(norm);
  const find = (names: string[]) => {
    for (const name of names) {
      const i = headers.indexOf(name);
      if (i >= 0) return i;
    }
    return -1;
  };
  const tool = TOOL_NAMES[source];
  const signed = (s: ImportSource) => SIGNATURES[s].some((name) => headers.includes(name));
  const other = (Object.keys(SIGNATURES) as ImportSource[]).find((s) => s !== source && signed(s));
  if (other && !signed(source))
    throw new ImportFileError(
      `This looks like an export of ${TOOL_NAMES[other]}, not of ${tool}: import it as ${TOOL_NAMES[other]}`,
    );
  const hostAt = find(HOST_HEADERS);
  if (hostAt < 0)
    throw new ImportFileError(
      `This does not look like a ${tool} export: it has no column for the website (Target, Domain or URL)`,
    );
  const metricAt = Object.entries(METRIC_HEADERS[source])
    .map(([metric, names]) => ({ metric: metric as OutletMetric, at: find(names), header: '' }))
    .filter((m) => m.at >= 0)
    .map((m) => ({ ...m, header: records[0].record[m.at].replace(/^\uFEFF/, '') }));
  if (metricAt.length === 0) {
    const known = Object.values(METRIC_HEADERS[source])
      .map((names) => names[0])
      .join(', ');
    throw new ImportFileError(`This does not look like a ${tool} export: it has none of the columns ${known}`);
  }
  const dateAt = find(DATE_HEADERS);

  const rows: Row[] = [];
  const errors: { line: number; message: string }[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records.slice(1)) {
    // info.lines is where the record ends; a quoted cell may span lines
    const line = info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
    const cell = (i: number) => record[i] ?? '';
    const host = outletHost(cell(hostAt));
    if (!host) {
      errors.push({ line, message: `"${cell(hostAt)}" is not a website address` });
      continue;
    }
    if (seen.has(host)) {
      errors.push({ line, message: `${host} is on line ${seen.get(host)} already` });
      continue;
    }
    seen.set(host, line);
    let asOf = today;
    if (dateAt >= 0 && !EMPTY.has(cell(dateAt).toLowerCase())) {
      const day = parseDay(cell(dateAt));
      if (!day || day.getTime() > today.getTime()) {
        errors.push({ line, message: `"${cell(dateAt)}" is not a date on or before today` });
        continue;
      }
      asOf = day;
    }
    const values: Row['values'] = [];
    let bad = false;
    for (const m of metricAt) {
      const raw = cell(m.at);
      if (EMPTY.has(raw.toLowerCase())) continue;
      const value = parseNumber(raw);
      if (value === null || (SCORES.includes(m.metric) && value > 100)) {
        errors.push({
          line,
          message: `${m.header} must be ${SCORES.includes(m.metric) ? 'a number from 0 to 100' : 'a number of 0 or more'}, not "${raw}"`,
        });
        bad = true;
        break;
      }
      values.push({ metric: m.metric, value });
    }
    if (!bad) rows.push({ line, host, asOf, values });
  }
  return { rows, errors };
}

/**
 * POST /api/admin/outlets/metrics/import: what the export changes, applied in one transaction
 * unless `dryRun` or any row is bad. A value is a change when it is newer than the latest from this
 * source, or differs from the value of that same day; importing the same file again changes nothing.
 * Values older than the latest from this source are history the outlet has moved past: left out.
 */
export async function importMetrics(
  db: Db,
  bytes: Buffer,
  opts: { source: ImportSource; dryRun: boolean; adminId: string; now?: Date },
): Promise<MetricsImportResult> {
  const now = opts.now ?? new Date();
  const { rows, errors } = readExport(bytes, opts.source, startOfUtcDay(now));
  const hosts = rows.map((r) => r.host);
  return db.transaction(async (tx) => {
    const known = hosts.length
      ? await tx
          .select({ id: outlets.id, host: outlets.host, name: outlets.name })
          .from(outlets)
          .where(inArray(outlets.host, hosts))
      : [];
    const byHost = new Map(known.map((o) => [o.host!, o]));
    const ids = known.map((o) => o.id);
    const latest = ids.length
      ? await tx
          .selectDistinctOn([outletMetrics.outletId, outletMetrics.metric], {
            outletId: outletMetrics.outletId,
            metric: outletMetrics.metric,
            value: outletMetrics.value,
            asOf: outletMetrics.asOf,
          })
          .from(outletMetrics)
          .where(and(eq(outletMetrics.source, opts.source), inArray(outletMetrics.outletId, ids)))
          .orderBy(outletMetrics.outletId, outletMetrics.metric, desc(outletMetrics.asOf))
      : [];
    const latestOf = new Map(latest.map((l) => [`${l.outletId} ${l.metric}`, l]));

    // a value dated further back than METRIC_STALE_DAYS arrives stale: said on its change, so the
    // dry run shows it before it is applied (issue 57), as the outlet's page would after
    const staleBefore = startOfUtcDay(now).getTime() - METRIC_STALE_DAYS * DAY_MS;
    const changes: MetricsImportResult['changes'] = [];
    const unmatched: string[] = [];
    for (const row of rows) {
      const outlet = byHost.get(row.host);
      if (!outlet) {
        unmatched.push(row.host);
        continue;
      }
      for (const { metric, value } of row.values) {
        const before = latestOf.get(`${outlet.id} ${metric}`);
        const from = before ? Number(before.value) : null;
        const newer = !before || before.asOf.getTime() < row.asOf.getTime();
        const corrected = before && before.asOf.getTime() === row.asOf.getTime() && from !== value;
        if (!newer && !corrected) continue;
        changes.push({
          host: row.host,
          outletId: outlet.id,
          outletName: outlet.name,
          metric,
          from,
          to: value,
          asOf: row.asOf.toISOString(),
          stale: row.asOf.getTime() < staleBefore,
        });
      }
    }
    const result = { rows: rows.length + errors.length, changes, unmatched, errors };
    if (opts.dryRun || errors.length > 0) return { applied: false, ...result };
    for (let i = 0; i < changes.length; i += 1000) {
      await tx
        .insert(outletMetrics)
        .values(
          changes.slice(i, i + 1000).map((c) => ({
            outletId: c.outletId,
            metric: c.metric,
            value: String(c.to),
            source: opts.source,
            asOf: new Date(c.asOf),
            importedBy: opts.adminId,
          })),
        )
        .onConflictDoUpdate({
          target: [outletMetrics.outletId, outletMetrics.metric, outletMetrics.source, outletMetrics.asOf],
          set: { value: sql`excluded.value`, importedBy: sql`excluded.imported_by` },
        });
    }
    return { applied: true, ...result };
  });
}
