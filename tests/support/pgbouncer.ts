/**
 * Debian's PgBouncer in transaction mode in front of the test server, for tests/api/pgbouncer.test.ts:
 * its own configuration in a temporary directory, a free loopback port, started as the `postgres`
 * user (PgBouncer refuses to run as root, and the tests run as root in CI), stopped after.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from './built-server';

const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';

/** Why PgBouncer cannot run here, or null. */
export const pgbouncerUnavailable = (): string | null =>
  existsSync(PGBOUNCER) ? null : `${PGBOUNCER} is missing (Debian: apt-get install pgbouncer; .ci/run installs it)`;

export interface Bouncer {
  /** `url` (a database on the test server) through PgBouncer */
  urlOf(url: string): string;
  /** PgBouncer's log so far */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The pooler as docs/deploy.md configures it: transaction mode, a few server connections per
 * database and user, and each server connection's session setting made by `connect_query` (the
 * app's own `SET` on a pooled connection would land on whichever server connection it got).
 */
export async function startPgBouncer(serverUrl: string, opts: { poolSize?: number } = {}): Promise<Bouncer> {
  const server = new URL(serverUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-pgbouncer-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  chownSync(dir, uid, gid);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const files = {
    'pgbouncer.ini': `[databases]
* = host=${server.hostname} port=${server.port || 5432} connect_query='SET enable_memoize = off'

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${dir}/userlist.txt
pool_mode = transaction
default_pool_size = ${opts.poolSize ?? 4}
max_client_conn = 500
server_reset_query =
ignore_startup_parameters = extra_float_digits
logfile = ${dir}/pgbouncer.log
pidfile = ${dir}/pgbouncer.pid
`,
    'userlist.txt': `"${user}" ""\n`,
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), text);
    chownSync(path.join(dir, name), uid, gid);
  }
  const child = spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => {
    try {
      return output + readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return output;
    }
  };
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      // runuser passes the signal on; PgBouncer exits at once
      await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const urlOf = (url: string) => {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  // ready once it answers a query on the server's own database
  for (let i = 0; ; i++) {
    const client = new pg.Client({ connectionString: urlOf(serverUrl) });
    const ready = await client
      .connect()
      .then(() => client.query('SELECT 1'))
      .then(
        () => true,
        () => false,
      );
    await client.end().catch(() => {});
    if (ready) break;
    if (i > 100 || child.exitCode !== null) {
      const seen = log();
      await stop();
      throw new Error(`PgBouncer did not start:\n${seen}`);
    }
    await sleep(100);
  }
  return { urlOf, log, stop };
}
