/**
 * The server's log destination (ops/request-log.ts) through a real pipe: every line arrives whole
 * and in order, multi-byte text included, and the lines still buffered when the process exits are
 * written out. The child writes faster than the pipe is read, so lines queue while writes are
 * under way, the case the destination's byte buffers are for.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('../../src/server/ops/request-log.ts', import.meta.url));
const LINES = 20_000;

const child = `
import pino from 'pino';
import { logDestination } from ${JSON.stringify(module)};
const log = pino({ base: null, timestamp: false }, logDestination());
for (let i = 0; i < ${LINES}; i++) log.info({ i, text: 'Zürich — 東京 ' + 'x'.repeat(i % 300) }, 'line');
process.exit(0);
`;

describe('the log destination', () => {
  it('writes every line whole and in order through a pipe, and the rest at exit', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { stdio: ['ignore', 'pipe', 'pipe'] });
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
