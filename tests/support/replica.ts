/**
 * A real streaming replica of the test server's cluster, for the tests of DATABASE_READ_URL: made
 * with `pg_basebackup` into a temporary directory and started on a free loopback port as the
 * `postgres` user (the tests run as root in CI; PostgreSQL refuses to run as root), torn down after.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from './built-server';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why a replica cannot be made on this machine, or null when it can. */
export function replicaUnavailable(): string | null {
  for (const tool of ['pg_basebackup', 'pg_ctl']) {
    if (!existsSync(path.join(PG_BIN, tool))) return `PostgreSQL's ${tool} is not in ${PG_BIN} (set PG_BIN)`;
  }
  return null;
}

export interface Replica {
  /** `url` with the replica's port: the same database, on the replica */
  urlOf(url: string): string;
  /** Waits until the replica has replayed everything the primary wrote so far. */
  caughtUp(): Promise<void>;
  /** Stops applying the primary's changes (they still arrive), as a replica far behind would be. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  stop(): Promise<void>;
}

const run = (cmd: string, args: string[], timeout = 60_000) => execFileSync(cmd, args, { stdio: 'pipe', timeout }).toString();
const asPostgres = (cmd: string, args: string[], timeout?: number) => run('runuser', ['-u', 'postgres', '--', cmd, ...args], timeout);

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Replication connections from 127.0.0.1: the server's pg_hba.conf names them apart from `all`
 * databases. The line is added (and the configuration reloaded) only when no rule allows them.
 */
async function allowReplication(adminUrl: string) {
  const rules = await query<{ n: number }>(
    adminUrl,
    `SELECT count(*)::int AS n FROM pg_hba_file_rules
      WHERE type LIKE 'host%' AND 'replication' = ANY(database) AND (address IS NULL OR address IN ('127.0.0.1', 'all', '0.0.0.0'))`,
  );
  if (rules[0].n > 0) return;
  const [{ hba_file: hba }] = await query<{ hba_file: string }>(adminUrl, 'SHOW hba_file');
  // first, so no later `reject` line can shadow it
  const current = run('cat', [hba]);
  writeFileSync(hba, `# the tests' streaming replica (tests/support/replica.ts)\nhost replication all 127.0.0.1/32 trust\n${current}`);
  await query(adminUrl, 'SELECT pg_reload_conf()');
  await sleep(500);
}

/** The settings a hot standby needs at least as high as its primary's. */
const AT_LEAST_PRIMARY = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'];

/** A replica of the cluster `adminUrl` (a superuser's URL of the primary) points at, started and caught up. */
export async function startReplica(adminUrl: string): Promise<Replica> {
  await allowReplication(adminUrl);
  const primary = new URL(adminUrl);
  const uid = Number(run('id', ['-u', 'postgres']));
  const gid = Number(run('id', ['-g', 'postgres']));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-replica-'));
  chownSync(dir, uid, gid);
  const data = path.join(dir, 'data');
  let port = 0;
  const settings = await query<{ name: string; setting: string }>(adminUrl, 'SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [AT_LEAST_PRIMARY]);
  let started = false;
  const stop = async () => {
    if (started) {
      try {
        asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // -R: standby.signal and primary_conninfo; -X stream: the WAL written meanwhile comes along
    asPostgres(path.join(PG_BIN, 'pg_basebackup'), ['-h', primary.hostname, '-p', primary.port || '5432', '-U', decodeURIComponent(primary.username || 'postgres'), '-D', data, '-X', 'stream', '-R', '-c', 'fast', '--no-sync'], 120_000);
    // a Debian cluster keeps its configuration in /etc: the copy gets a small one of its own
    const configure = (port: number) => [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'hot_standby = on',
      'shared_buffers = 32MB',
      'fsync = off',
      'logging_collector = off',
      ...settings.map((s) => `${s.name} = ${s.setting}`),
    ];
    // a second try on another port: a free port can be taken by another test between the check and the start
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      for (const [file, text] of [
        ['postgresql.conf', configure(port).join('\n') + '\n'],
        ['pg_hba.conf', 'local all all trust\nhost all all 127.0.0.1/32 trust\n'],
        ['pg_ident.conf', ''],
      ] as const) {
        writeFileSync(path.join(data, file), text);
        chownSync(path.join(data, file), uid, gid);
      }
      started = true;
      try {
        asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start'], 90_000);
        break;
      } catch (error) {
        if (attempt >= 2) throw error;
        try {
          asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } catch {
          // it did not start
        }
      }
    }
  } catch (error) {
    const e = error as Error & { stderr?: Buffer };
    const log = existsSync(path.join(dir, 'log')) ? readFileSync(path.join(dir, 'log'), 'utf8').slice(-4000) : '';
    await stop();
    throw new Error(`the replica could not be made: ${e.message}\n${e.stderr?.toString() ?? ''}\n${log}`);
  }

  const urlOf = (url: string) => {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  const replicaAdmin = urlOf(adminUrl);
  const replica: Replica = {
    urlOf,
    async caughtUp() {
      const [{ lsn }] = await query<{ lsn: string }>(adminUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
      for (let i = 0; i < 300; i++) {
        const [row] = await query<{ ok: boolean }>(replicaAdmin, 'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS ok', [lsn]);
        if (row.ok) return;
        await sleep(100);
      }
      throw new Error(`the replica did not replay up to ${lsn} in 30 s`);
    },
    async pauseReplay() {
      await query(replicaAdmin, 'SELECT pg_wal_replay_pause()');
      for (let i = 0; i < 100; i++) {
        const [row] = await query<{ state: string }>(replicaAdmin, 'SELECT pg_get_wal_replay_pause_state() AS state');
        if (row.state === 'paused') return;
        await sleep(50);
      }
      throw new Error('the replica did not pause its replay');
    },
    async resumeReplay() {
      await query(replicaAdmin, 'SELECT pg_wal_replay_resume()');
    },
    stop,
  };
  // ready: it accepts connections and is a standby
  for (let i = 0; ; i++) {
    const rows = await query<{ standby: boolean }>(replicaAdmin, 'SELECT pg_is_in_recovery() AS standby').catch(() => null);
    if (rows?.[0].standby) break;
    if (i > 300) {
      await stop();
      throw new Error('the replica did not accept connections in 30 s');
    }
    await sleep(100);
  }
  return replica;
}
