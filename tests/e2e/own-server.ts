import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { SERVE, serverEnv } from '../../playwright.config';

const E2E_PORT = Number(process.env.E2E_PORT ?? 5174);

/**
 * A Byline server of one journey's own (its own port, data folder and, on PostgreSQL, database),
 * for journeys that change what every other journey would see: time moved by the test clock
 * (due-dates.spec.ts), times moved in the database with the server stopped (dispute-deadlines.spec.ts).
 * Seeded with the demo content as the suite's servers are. `offset` picks the port: E2E_PORT + it.
 */
export class OwnServer {
  child: ChildProcess | null = null;
  readonly port: number;
  readonly base: string;
  readonly env: Record<string, string>;
  readonly pgUrl: string | null;

  constructor(offset: number, onPostgres: boolean, env: Record<string, string> = {}) {
    this.port = E2E_PORT + offset;
    this.base = `http://localhost:${this.port}`;
    this.env = { ...serverEnv(this.port), ...env };
    const url = process.env.TEST_DATABASE_URL;
    if (onPostgres && !url) throw new Error('the postgres project needs TEST_DATABASE_URL');
    this.pgUrl = onPostgres ? Object.assign(new URL(url!), { pathname: `/byline_e2e_${this.port}` }).toString() : null;
  }

  /** A fresh data folder (and database), seeded with the demo content as the suite's servers are. */
  async create() {
    rmSync(this.env.DATA_DIR, { recursive: true, force: true });
    if (!this.pgUrl) return;
    await run('node', ['scripts/e2e-database.mjs', `byline_e2e_${this.port}`]);
    await run('npm', ['run', '--silent', 'db:seed'], { DATABASE_URL: this.pgUrl });
  }

  async start() {
    const child = spawn('sh', ['-c', `exec ${SERVE}`], {
      env: { ...process.env, ...this.env, ...(this.pgUrl ? { DATABASE_URL: this.pgUrl } : {}) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    const until = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${this.base}/api/user`)).status < 500) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > until) throw new Error('the server did not start in 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** SIGTERM, as a deploy stops it: the requests and jobs under way finish first. */
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    this.child = null;
  }

  async destroy() {
    await this.stop();
    rmSync(this.env.DATA_DIR, { recursive: true, force: true });
    if (this.pgUrl) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS byline_e2e_${this.port} WITH (FORCE)`);
      await admin.end();
    }
  }
}

function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}`))));
  });
}
