/**
 * Errors at the edge (issue 58, decision 040):
 * - no server module names an HTTP status in a refusal: ESLint's rule for src/server/modules
 *   (eslint.config.js) is live and catches each way of doing it, and no module file does it;
 * - the client branches on a refusal's `code`, never on its message's words: no file of src/client
 *   compares, searches or pattern-matches an error's message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ERROR_CODE_RE, STATUS_OF_KIND } from '../../src/server/lib/errors';

const root = path.resolve(__dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('services throw no HTTP status', () => {
  const RULE = 'no-restricted-syntax';
  const lint = async (code: string) => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText(code, { filePath: path.join(root, 'src/server/modules/payments/example.ts') });
    return result.messages.filter((m) => m.ruleId === RULE || m.ruleId === 'no-restricted-imports').map((m) => m.line);
  };

  it('the lint rule refuses each way a module could name a status, and allows a domain error', async () => {
    const refused = [
      "export class E extends Error { constructor(readonly status = 409) { super('x'); } }\nexport const e = new E(409);",
      "export function f() { throw Object.assign(new Error('x'), { statusCode: 404 }); }",
      "export const isGone = (err: { statusCode?: number }) => err.statusCode === 410;",
      'export type Status = 400 | 413;',
      "import type { FastifyReply } from 'fastify';\nexport const no = (reply: FastifyReply) => reply.code(403).send({ message: 'no' });",
      "import { STATUS_OF_KIND } from '../../lib/errors';\nexport const s = STATUS_OF_KIND.conflict;",
    ];
    for (const code of refused) expect((await lint(code)).length, code).toBeGreaterThan(0);
    const allowed = [
      "import { conflict } from '../../lib/errors';\nexport function f() { throw conflict('cart_empty', 'Your cart is empty'); }",
      "import type { FastifyReply } from 'fastify';\nexport const made = (reply: FastifyReply) => reply.code(201).send({});",
    ];
    for (const code of allowed) expect(await lint(code), code).toEqual([]);
  }, 60_000);

  it('no module file constructs a status-bearing error or reads a status', () => {
    const offending = filesUnder(path.join(root, 'src/server/modules')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${path.relative(root, file)}:${i + 1}` }))
        .filter(({ line }) => /\bHttpError\b|\bstatusCode\b|\bnew \w*Error\(\s*[45]\d\d\b|\bthrow\b.*\(\s*[45]\d\d\s*,/.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(offending).toEqual([]);
  });

  it('every kind maps to a 4xx or 5xx status', () => {
    for (const [kind, status] of Object.entries(STATUS_OF_KIND)) {
      expect(ERROR_CODE_RE.test(kind), kind).toBe(true);
      expect(status >= 400 && status < 600, kind).toBe(true);
    }
  });

  it('every code thrown from the server is snake_case', () => {
    const bad = filesUnder(path.join(root, 'src/server')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\b(?:badRequest|forbidden|notFound|conflict|unauthorized|gone|tooLarge|unsupportedMedia|unprocessable|upstreamFailed)\(\s*'([^']*)'/g)]
        .map((m) => m[1])
        .filter((code) => !ERROR_CODE_RE.test(code))
        .map((code) => `${path.relative(root, file)}: ${code}`),
    );
    expect(bad).toEqual([]);
  });
});

describe('the client matches no error message text', () => {
  /**
   * An error's message compared, searched or pattern-matched. (`typeof body.message === 'string'`
   * reads the server's JSON and is no match on its words.)
   */
  const MATCHES_MESSAGE = [
    /(?<!typeof\s+[\w.?]*)\.message\s*(===|!==|==|!=)/,
    /(===|!==|==|!=)\s*[\w.?]*\.message\b/,
    /\.message\??\.(includes|startsWith|endsWith|match|matchAll|search|indexOf|localeCompare)\(/,
    /\.(test|exec)\(\s*[\w.?]*message\s*\)/i,
  ];
  /**
   * Files allowed a match, and why: none is an API refusal. The page boundary tells a failed
   * download of a page's code (a new release replaced it) from the browser's own words; there is
   * no code for that.
   */
  const ALLOWED = new Map([['src/client/app/page-error-boundary.tsx', 'a browser’s failed dynamic import']]);
  const matchesMessage = (line: string) => MATCHES_MESSAGE.some((re) => re.test(line));

  it('the detector finds what it looks for', () => {
    for (const line of [
      "if (err.message === 'Payment not found') return null;",
      "if ('This opportunity is sold out' !== error.message) throw error;",
      "const told = err instanceof ApiError && !/^\\d{3}: /.test(err.message);",
      "if (err.status === 404 && /client/i.test(err.message)) return 'client';",
      "if (err.message.includes('reason')) ask();",
      'const m = e?.message?.startsWith("Only");',
    ])
      expect(matchesMessage(line), line).toBe(true);
    for (const line of [
      "if (body && typeof body.message === 'string') return new ApiError(status, body.message);",
      "if (err.code === 'draft_not_approved') ask();",
      'form.setError(field, { message });',
    ])
      expect(matchesMessage(line), line).toBe(false);
  });

  it('no file of src/client branches on an error message’s words', () => {
    const offending = filesUnder(path.join(root, 'src/client'))
      .filter((file) => !ALLOWED.has(path.relative(root, file)))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${path.relative(root, file)}:${i + 1}` }))
          .filter(({ line }) => matchesMessage(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offending).toEqual([]);
  });
});
