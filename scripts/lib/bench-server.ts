import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, sleep } from './bench-util';
import { builtServerArgs, serverArgs } from './server-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A bench's database server must be this machine's: the benches connect to loopback only. */
export function assertLoopback(url: string) {
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)) {
    throw new Error(`${url}: the bench connects to loopback addresses only`);
  }
}

/** One statement on the server as its superuser (CREATE / DROP DATABASE). */
export async function adminQuery(url: string, query: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

export interface BenchServer {
  child: ChildProcess;
  origin: string;
  stderr: string[];
}

/**
 * The built server as `npm start` runs it, in production mode with the test checkout, on a free
 * loopback port; resolves once it answers. `env` adds or overrides settings; `nodeArgs` go before
 * the server's own (a `--import`, `--cpu-prof`), `ipc` opens a message channel to it, and `main`
 * starts another build than the current source's (one built already: nothing is built then).
 */
export async function startBuiltServer(
  env: Record<string, string>,
  options: { nodeArgs?: string[]; ipc?: boolean; main?: string } = {},
): Promise<BenchServer> {
  const port = await freePort();
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (/^(DATABASE_URL|STRIPE_|SMTP_URL|PUBLIC_URL|PORT|HOST|LINK_CHECK_|INVOICE_)/.test(k)) delete clean[k];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...(options.main ? serverArgs(options.main) : builtServerArgs())], {
    cwd: root,
    env: { ...clean, NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  child.stdout!.on('data', () => {});
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr.join('')}`);
    try {
      if ((await fetch(`${origin}/api/user`)).status === 401) return { child, origin, stderr };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${stderr.join('')}`);
}

export async function stopServer(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && !child.signalCode) child.kill('SIGKILL');
}

/** Replaces a bench's own section of bench/results.md (between its start and end markers). */
export function writeResultsSection(name: string, body: string) {
  const file = path.join(root, 'bench', 'results.md');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const text = readFileSync(file, 'utf8');
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  writeFileSync(file, i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.replace(/\n*$/, '\n\n')}${block}\n`);
}
