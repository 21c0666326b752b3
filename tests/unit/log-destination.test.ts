/**
 * The server's log destination (ops/request-log.ts) through a real pipe: every line arrives whole
 * and in order, multi-byte text included, and the lines still buffered when the process exits are
 * written out. The child writes faster than the pipe is read, so lines queue while writes are
 * under way, the case the destination's byte buffers are for. Lines are written in batches, and a
 * quiet server's lone line must still come out while it runs, and on `logger.flush`, without error.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('../../src/server/ops/request-log.ts', import.meta.url));
const LINES = 20_000;

/** Runs `source` (an ES module) in a new Node process whose stdout and stderr are pipes. */
const spawnModule = (source: string) =>
  spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });

const child = `
import pino from 'pino';
import { logDestination } from ${JSON.stringify(module)};
const log = pino({ base: null, timestamp: false }, logDestination());
for (let i = 0; i < ${LINES}; i++) log.info({ i, text: 'Zürich — 東京 ' + 'x'.repeat(i % 300) }, 'line');
process.exit(0);
`;

describe('the log destination', () => {
  it('writes every line whole and in order through a pipe, and the rest at exit', async () => {
    const proc = spawnModule(child);
    const out: Buffer[] = [];
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk));
    const code = await new Promise((resolve) => proc.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = Buffer.concat(out).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(LINES);
    lines.forEach((line, i) => {
      const parsed = JSON.parse(line) as { i: number; text: string; msg: string };
      expect(parsed.i).toBe(i);
      expect(parsed.text).toBe('Zürich — 東京 ' + 'x'.repeat(i % 300));
      expect(parsed.msg).toBe('line');
    });
  }, 60_000);
});

/** A child that writes one line, asks for it to be flushed (`logger.flush`), and stays up for a while. */
const quiet = (flush: boolean) => `
import pino from 'pino';
import { logDestination } from ${JSON.stringify(module)};
const log = pino({ base: null, timestamp: false }, logDestination());
log.info({ i: 0 }, 'alone');
${flush ? "log.flush((err) => process.stderr.write('flushed: ' + (err ? err.message : 'ok') + '\\n'));" : ''}
setTimeout(() => process.exit(0), 10_000);
`;

/** The child's output until `done` says it has what it waits for (at most 5 s); the child is then killed. */
async function watch(source: string, done: (out: string, err: string) => boolean) {
  const proc = spawnModule(source);
  let out = '';
  let err = '';
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => done(out, err) && resolve();
      proc.stdout.on('data', (chunk: Buffer) => ((out += chunk), check()));
      proc.stderr.on('data', (chunk: Buffer) => ((err += chunk), check()));
      proc.on('exit', () => reject(new Error(`the child exited first: ${JSON.stringify({ out, err })}`)));
      timer = setTimeout(() => reject(new Error(`not there after 5 s: ${JSON.stringify({ out, err })}`)), 5_000);
    });
    return { out, err };
  } finally {
    clearTimeout(timer);
    proc.kill();
  }
}

describe('a quiet server', () => {
  it('writes a lone line while it runs, without waiting for a batch to fill or for the exit', async () => {
    const { out, err } = await watch(quiet(false), (o) => o.includes('\n'));
    expect(err).toBe('');
    expect(JSON.parse(out)).toMatchObject({ i: 0, msg: 'alone' });
  }, 9_000);

  it('flushes on request, through a pipe, without an error', async () => {
    const { out, err } = await watch(quiet(true), (o, e) => o.includes('\n') && e.includes('\n'));
    expect(JSON.parse(out)).toMatchObject({ i: 0, msg: 'alone' });
    expect(err).toBe('flushed: ok\n');
  }, 9_000);
});

const events = fileURLToPath(new URL('../../src/server/ops/events.ts', import.meta.url));

/**
 * A child that logs 30,000 lines of ~1 KB (~31 MB, past the 16 MB the destination may hold) in
 * bursts, then tells on stderr how many lines were counted as dropped and the longest its event loop
 * waited between bursts; it stays up until killed.
 */
const flood = `
import pino from 'pino';
import { logDestination } from ${JSON.stringify(module)};
import { onCountedEvent } from ${JSON.stringify(events)};
let dropped = 0;
onCountedEvent((event) => { if (event === 'log-dropped') dropped++; });
const log = pino({ base: null, timestamp: false }, logDestination());
const text = 'x'.repeat(1000);
let i = 0, worst = 0, last = Date.now();
(function burst() {
  const now = Date.now();
  worst = Math.max(worst, now - last);
  last = now;
  for (let k = 0; k < 500 && i < 30000; k++, i++) log.info({ i, text }, 'line');
  if (i < 30000) setImmediate(burst);
  else process.stderr.write(JSON.stringify({ dropped, worst }) + '\\n');
})();
setTimeout(() => {}, 60_000);
`;

/** The child's report from stderr; `reader` does what the reader of its stdout does. */
async function report(reader: (stdout: NodeJS.ReadableStream & { destroy(): void }) => void) {
  const proc = spawnModule(flood);
  reader(proc.stdout);
  let err = '';
  try {
    await new Promise<void>((resolve, reject) => {
      proc.stderr.on('data', (chunk: Buffer) => ((err += chunk), err.includes('\n') && resolve()));
      proc.on('exit', (code) => reject(new Error(`the child exited with ${code}: ${err}`)));
    });
  } finally {
    proc.kill('SIGKILL');
  }
  return JSON.parse(err) as { dropped: number; worst: number };
}

describe('a reader that does not keep up', () => {
  it('never holds up the server: past 16 MB lines are dropped and counted', async () => {
    // stdout is never read: the pipe fills after its first 64 KB
    const { dropped, worst } = await report(() => {});
    expect(dropped).toBeGreaterThan(10_000);
    expect(dropped).toBeLessThan(20_000);
    expect(worst).toBeLessThan(1_000);
  }, 30_000);

  it('a reader gone (EPIPE): the server keeps running, every line is counted as dropped', async () => {
    const { dropped, worst } = await report((stdout) => stdout.destroy());
    expect(dropped).toBeGreaterThanOrEqual(29_000);
    expect(worst).toBeLessThan(1_000);
  }, 30_000);
});
