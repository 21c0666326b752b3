/**
 * A real server for the client benchmarks: the built server (dist/server/main.js) on a free port,
 * a fresh embedded database with the demo users, and (optionally) N extra available opportunities
 * created through the admin API. Needs a client build in dist/client (runs `vite build` if missing).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtServerArgs } from './server-build';

export const BRAND = { email: 'brand@byline.test', password: 'byline-brand-demo' };
const ADMIN = { email: 'admin@byline.test', password: 'byline-admin-demo' };
const TYPES = ['profile_article', 'editorial_feature', 'advertorial_brand_voice', 'listicle'] as const;

function ensureClientBuild() {
  if (existsSync('dist/client/index.html')) return;
  console.log('dist/client is missing: running vite build');
  const r = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('vite build failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface Portal {
  base: string;
  /** signs in and returns the `Cookie` header value */
  login: (who: { email: string; password: string }) => Promise<string>;
  stop: () => Promise<void>;
}

export async function startPortal({ opportunities = 0 } = {}): Promise<Portal> {
  ensureClientBuild();
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'byline-bench-'));
  const child: ChildProcess = spawn(process.execPath, builtServerArgs(), {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '1', LOG_LEVEL: 'warn', PUBLIC_URL: base },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      try {
        if ((await fetch(`${base}/api/user`)).status < 500) break;
      } catch {
        /* not listening yet */
      }
      if (i > 600) throw new Error('the server did not start in 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const login = async (who: { email: string; password: string }) => {
      const res = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify(who),
      });
      if (!res.ok) throw new Error(`login ${who.email}: ${res.status}`);
      return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    };
    if (opportunities > 0) await addOpportunities(base, await login(ADMIN), opportunities);
    return { base, login, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function addOpportunities(base: string, cookie: string, count: number) {
  const deadline = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const res = await fetch(`${base}/api/admin/opportunities`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, cookie },
        body: JSON.stringify({
          outletName: `Outlet ${i + 1}`,
          outletUrl: `https://outlet-${i + 1}.example.com`,
          title: `Feature story ${i + 1}: how growing companies earn coverage in trade media`,
          description: `Opportunity ${i + 1} for the benchmark.`,
          type: [TYPES[i % TYPES.length]],
          tat: `${(i % 4) + 1} weeks`,
          priceUsd: String(250 + (i % 40) * 25),
          maxSlots: (i % 3) + 1,
          domainAuthority: (i % 90) + 10,
          deadlineDate: deadline,
          exampleUrls: [],
        }),
      });
      if (!res.ok) throw new Error(`create opportunity ${i}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}
