/**
 * `npm run bench -- files`: an image served through the app from the bucket (issue 22), judged:
 * GET /uploads/{name} with FILE_STORE=s3 against s3rver on loopback, p99 < 50 ms at 50 connections,
 * as the server runs by default (S3_CACHE_MB=32: the image read from the bucket once, then kept).
 * For comparison (not judged): the same image from the disk store, and from the bucket on every
 * request (S3_CACHE_MB=0).
 *
 * s3rver (the S3-protocol server the tests use) runs as its own process on loopback; the server is
 * the built one (dist/server/main.js, as `npm start` runs it) on its embedded database (the image
 * route reads no table), with logging at `info` and METRICS_TOKEN set (the conditions).
 * An admin uploads a BENCH_IMAGE_KB (50) KB PNG logo through POST /api/upload/logo; autocannon then
 * fetches it for BENCH_FILES_SECONDS (10) seconds with BENCH_CONNECTIONS (50), each answer's size
 * checked. Writes its section of bench/results.md between <!-- bench-files:start --> and
 * <!-- bench-files:end -->; exits 1 when the target is missed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue.js';
import { freePort, login, mb, procMemory, sleep } from './lib/bench-util';
import { procCpuMs } from './lib/proc-cpu';
import { builtServerArgs } from './lib/server-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(root, 'bench', 'results.md');
const SECONDS = Number(process.env.BENCH_FILES_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const IMAGE_KB = Number(process.env.BENCH_IMAGE_KB ?? 50);
const P99_MS = 50;
const BUCKET = 'byline-bench';
const ADMIN_EMAIL = 'admin@files-bench.example.com';
const ADMIN_PASSWORD = 'files-bench-admin-password';

// the load generator counts bodies without keeping them (see scripts/bench.ts)
PipelinedRequestsQueue.prototype.addBody = function addBody() {};

const log = (line: string) => console.log(`[bench files ${new Date().toISOString().slice(11, 19)}] ${line}`);

// a 1×1 PNG, padded to the size of a typical logo (the bytes after IEND are the image's to carry)
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const IMAGE = Buffer.alloc(IMAGE_KB * 1024);
PNG_1PX.copy(IMAGE);

async function waitFor(what: string, child: ChildProcess, stderr: string[], ready: () => Promise<boolean>) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${stderr.join('')}`);
    if (await ready().catch(() => false)) return;
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`${what} did not start: ${stderr.join('')}`);
}

function started(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  child.stdout!.on('data', () => {});
  return { child, stderr };
}

async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && !child.signalCode) child.kill('SIGKILL');
}

async function startS3rver(dir: string) {
  const port = await freePort();
  const s3 = started(
    process.execPath,
    [path.join(root, 'node_modules/s3rver/bin/s3rver.js'), '-d', dir, '-a', '127.0.0.1', '-p', String(port), '-s', '--no-vhost-buckets', '--configure-bucket', BUCKET],
    process.env,
  );
  // an anonymous GET of a missing object: 403 or 404, either way it answers
  await waitFor('s3rver', s3.child, s3.stderr, async () => (await fetch(`http://127.0.0.1:${port}/${BUCKET}/nothing`)).status >= 400);
  return { ...s3, port };
}

async function startServer(serverArgs: string[], dataDir: string, env: Record<string, string>) {
  const port = await freePort();
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (/^(DATABASE_URL|STRIPE_|SMTP_URL|PUBLIC_URL|PORT|HOST|LINK_CHECK_|S3_|FILE_STORE)/.test(k)) delete clean[k];
  const server = started(process.execPath, serverArgs, {
    ...clean,
    NODE_ENV: 'production',
    PAYMENT_PROVIDER: 'test',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    METRICS_TOKEN: 'bench-files-metrics-token',
    SEED_DEMO: 'false',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    ...env,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor('server', server.child, server.stderr, async () => (await fetch(`${origin}/api/user`)).status === 401);
  return { ...server, origin };
}

async function uploadLogo(origin: string, cookie: string): Promise<string> {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(IMAGE)], { type: 'image/png' }), 'logo.png');
  const res = await fetch(`${origin}/api/upload/logo`, { method: 'POST', headers: { origin, cookie }, body: form });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${text}`);
  return (JSON.parse(text) as { url: string }).url;
}

interface Run {
  store: 'disk' | 's3' | 's3-uncached';
  result: Result;
  wrongLength: number;
  serverCpuMs: number;
  s3CpuMs: number;
  rss: number;
}

async function measure(store: Run['store'], serverArgs: string[], dataDir: string, s3?: { port: number; pid: number }): Promise<Run> {
  const env: Record<string, string> = s3
    ? {
        ...(store === 's3-uncached' ? { S3_CACHE_MB: '0' } : {}),
        FILE_STORE: 's3',
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: `http://127.0.0.1:${s3.port}`,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      }
    : {};
  const server = await startServer(serverArgs, dataDir, env);
  try {
    const cookie = await login(server.origin, ADMIN_EMAIL, ADMIN_PASSWORD);
    const url = await uploadLogo(server.origin, cookie);
    const check = await fetch(`${server.origin}${url}`);
    const body = Buffer.from(await check.arrayBuffer());
    if (check.status !== 200 || !body.equals(IMAGE)) throw new Error(`${store}: GET ${url} answered ${check.status}, ${body.length} bytes`);
    log(`${store}: ${url} (${IMAGE.length} bytes); warming up`);
    await autocannon({ url: `${server.origin}${url}`, connections: CONNECTIONS, duration: 2 });
    const pid = server.child.pid!;
    const [c0, s0] = [procCpuMs(pid), s3 ? procCpuMs(s3.pid) : 0];
    let wrongLength = 0;
    const result = await autocannon({
      url: `${server.origin}${url}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: 10,
      setupClient(client) {
        // bytes received for one answer, headers included: an answer without the whole image is wrong
        client.on('response', (_status, bytes) => {
          if (bytes < IMAGE.length) wrongLength++;
        });
      },
    });
    const [c1, s1] = [procCpuMs(pid), s3 ? procCpuMs(s3.pid) : 0];
    const n = result.requests.total || NaN;
    const run: Run = {
      store,
      result,
      wrongLength,
      serverCpuMs: c0 !== null && c1 !== null ? (c1 - c0) / n : NaN,
      s3CpuMs: s0 !== null && s1 !== null ? (s1 - s0) / n : NaN,
      rss: procMemory(pid)?.rss ?? NaN,
    };
    log(
      `${store}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `non-2xx ${result.non2xx}, errors ${result.errors}, wrong length ${wrongLength}`,
    );
    return run;
  } finally {
    await stop(server.child);
  }
}

function writeSection(body: string) {
  const start = '<!-- bench-files:start -->';
  const end = '<!-- bench-files:end -->';
  const text = readFileSync(RESULTS, 'utf8');
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  writeFileSync(RESULTS, i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.replace(/\n*$/, '\n\n')}${block}\n`);
}

export async function benchFiles() {
  const t0 = performance.now();
  const loadAtStart = os.loadavg();
  log(`load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} cores`);
  const serverArgs = builtServerArgs();
  const dirs = [0, 1, 2, 3].map(() => mkdtempSync(path.join(os.tmpdir(), 'byline-bench-files-')));
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  try {
    const disk = await measure('disk', serverArgs, dirs[0]);
    s3 = await startS3rver(dirs[1]);
    const uncached = await measure('s3-uncached', serverArgs, dirs[2], { port: s3.port, pid: s3.child.pid! });
    const bucket = await measure('s3', serverArgs, dirs[3], { port: s3.port, pid: s3.child.pid! });
    const loadAtEnd = os.loadavg();
    const met = bucket.result.latency.p99 < P99_MS && bucket.result.non2xx === 0 && bucket.result.errors === 0 && bucket.wrongLength === 0;
    const label = { disk: 'disk (DATA_DIR/uploads)', 's3-uncached': 'S3, read from the bucket every time (S3_CACHE_MB=0)', s3: '**S3, as by default (S3_CACHE_MB=32)**' };
    const row = (r: Run) =>
      `| ${label[r.store]} | ${Math.round(r.result.requests.average)} | ${r.result.latency.p50} | ${r.result.latency.p90} | ${r.result.latency.p99} | ${r.result.latency.max} | ${r.result.non2xx + r.result.errors + r.wrongLength} | ${r.serverCpuMs.toFixed(2)} | ${r.store === 'disk' ? '—' : r.s3CpuMs.toFixed(2)} | ${mb(r.rss)} |`;
    const lines = [
      '## Files: an image served through the app from the bucket (`npm run bench -- files`)',
      '',
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} cores, 1-minute load ${loadAtStart[0].toFixed(1)} at the start and ${loadAtEnd[0].toFixed(1)} at the end; ${((performance.now() - t0) / 1000).toFixed(0)} s in all.`,
      `GET /uploads/{name} of a ${IMAGE_KB} KB PNG logo uploaded through POST /api/upload/logo, ${CONNECTIONS} connections for ${SECONDS} s after a 2 s warm-up, the built server (logging at info, METRICS_TOKEN set) with FILE_STORE=s3 against s3rver (its own process, loopback, on the same 2 cores); for comparison the disk store, and the bucket read on every request. Each answer's size checked.`,
      '',
      '| store | req/s | p50 ms | p90 ms | p99 ms | max ms | wrong answers | server CPU ms/req | s3rver CPU ms/req | server RSS MB |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      row(disk),
      row(uncached),
      row(bucket),
      '',
      `- **An image served through the app from S3 (s3rver on loopback) p99 < ${P99_MS} ms at ${CONNECTIONS} connections: ${met ? 'met' : 'missed'}** (p99 ${bucket.result.latency.p99} ms, the server as configured by default: the image read from the bucket once, then from memory; docs/decisions/020).`,
      `- Read from the bucket on every request (S3_CACHE_MB=0), p99 ${uncached.result.latency.p99} ms: each GET costs the server ${uncached.serverCpuMs.toFixed(2)} ms of CPU (the AWS SDK's request, signing and response handling, against ${disk.serverCpuMs.toFixed(2)} ms from the disk) and s3rver ${uncached.s3CpuMs.toFixed(2)} ms on the same two cores.`,
    ];
    writeSection(lines.join('\n'));
    if (!met) {
      console.log(`target missed: p99 ${bucket.result.latency.p99} ms (target < ${P99_MS} ms)`);
      process.exitCode = 1;
    }
  } finally {
    await stop(s3?.child);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

