/**
 * The client calls the contract (issue 58): every API URL in the client is built by `apiUrl()` from
 * the one list of the server's paths (src/shared/api-paths.ts), which the server's `route()` also
 * takes its URLs from; a path spelled by hand in the client would break silently when a route is
 * renamed. (That the list and the server's routes are the same set: tests/api/api-paths.test.ts.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { apiUrl } from '../../src/shared/api-paths';

const CLIENT = path.resolve(__dirname, '../../src/client');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Is this expression an argument of `apiUrl(…)` (directly, or as a branch of a `?:` in it)? */
function inApiUrl(node: ts.Node): boolean {
  let child: ts.Node = node;
  let parent = node.parent;
  while (ts.isConditionalExpression(parent) || ts.isParenthesizedExpression(parent)) {
    if (ts.isConditionalExpression(parent) && parent.condition === child) return false;
    child = parent;
    parent = parent.parent;
  }
  return ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'apiUrl' && parent.arguments[0] === child;
}

/** The strings and templates of a file that start like an API URL and are not `apiUrl`'s path. */
function handBuilt(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const text = ts.isStringLiteralLike(node) ? node.text : ts.isTemplateExpression(node) ? node.head.text : undefined;
    if (text?.startsWith('/api/') && !inApiUrl(node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${path.relative(CLIENT, file)}:${line + 1}: ${node.getText().slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the client builds API URLs from the server’s paths', () => {
  it('spells no API URL by hand in src/client (features, components, lib, app)', () => {
    const all = files(CLIENT).filter((f) => !f.endsWith(path.join('lib', 'api.ts')));
    expect(all.length).toBeGreaterThan(100);
    expect(all.flatMap(handBuilt)).toEqual([]);
  });

  it('finds a hand-built URL (the check itself can fail)', () => {
    const dir = path.join(CLIENT, 'features');
    const sample = files(dir).find((f) => readFileSync(f, 'utf8').includes("apiUrl('/api/"));
    expect(sample).toBeDefined();
    const source = ts.createSourceFile('x.ts', "const a = apiUrl('/api/org'); const b = `/api/org/members/${id}`; const c = '/api/org'; const d = apiUrl(x ? '/api/cart' : '/api/org');", ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      const text = ts.isStringLiteralLike(node) ? node.text : ts.isTemplateExpression(node) ? node.head.text : undefined;
      if (text?.startsWith('/api/') && !inApiUrl(node)) found.push(node.getText());
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(found).toEqual(['`/api/org/members/${id}`', "'/api/org'"]);
  });

  it('fills parameters encoded and leaves empty query values out', () => {
    expect(apiUrl('/api/admin/payments/:paymentId/credit-notes/:noteId', { paymentId: 'p 1', noteId: 'n/2' })).toBe('/api/admin/payments/p%201/credit-notes/n%2F2');
    expect(apiUrl('/api/brand/my-articles', {}, { tab: 'pending', clientId: undefined, q: '' })).toBe('/api/brand/my-articles?tab=pending');
    expect(apiUrl('/api/opportunities', {}, new URLSearchParams({ limit: '20', sort: 'newest' }))).toBe('/api/opportunities?limit=20&sort=newest');
    expect(apiUrl('/api/org')).toBe('/api/org');
  });
});
