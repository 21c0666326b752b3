/**
 * The server's modules (src/server/modules/<thing>) and the client's features
 * (src/client/features/<thing>) import each other in one direction only: no circle of imports
 * between two or more of them, type imports included. ESLint's boundaries rule says which files may
 * be imported; this says the arrows never come back round.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'([^']+)'/gm;

/**
 * Every import of each unit's files (`from '…'`, `import '…'` and `import('…')`: a lazy import is
 * still an arrow between units), as the units they reach (relative and `@/` paths).
 */
function graphOf(root: string, alias?: { prefix: string; dir: string }): Map<string, Set<string>> {
  const units = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const graph = new Map(units.map((u) => [u, new Set<string>()]));
  const walk = (dir: string, visit: (file: string) => void) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p, visit);
      else if (/\.tsx?$/.test(e.name)) visit(p);
    }
  };
  for (const unit of units) {
    walk(path.join(root, unit), (file) => {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = spec.startsWith('.')
          ? path.resolve(path.dirname(file), spec)
          : alias && spec.startsWith(alias.prefix)
            ? path.resolve(alias.dir, spec.slice(alias.prefix.length))
            : null;
        if (!target) continue;
        const rel = path.relative(path.resolve(root), target);
        const other = rel.split(path.sep)[0];
        if (!rel.startsWith('..') && other !== unit && graph.has(other)) graph.get(unit)!.add(other);
      }
    });
  }
  return graph;
}

/** The circles of a graph, each as `a -> b -> a`. */
function circles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (unit: string, path: string[]) => {
    state.set(unit, 'open');
    path.push(unit);
    for (const next of graph.get(unit)!) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.get(next)) visit(next, path);
    }
    path.pop();
    state.set(unit, 'done');
  };
  for (const unit of graph.keys()) if (!state.get(unit)) visit(unit, []);
  return found;
}

describe('imports between modules and between features', () => {
  it('the server modules import each other without a circle', () => {
    const graph = graphOf('src/server/modules');
    expect(graph.size).toBeGreaterThan(10);
    expect(circles(graph)).toEqual([]);
  });

  it('the client features import each other without a circle', () => {
    const graph = graphOf('src/client/features', { prefix: '@/features/', dir: 'src/client/features' });
    expect(graph.size).toBeGreaterThan(10);
    expect(circles(graph)).toEqual([]);
  });

  it('counts every kind of import as an arrow', () => {
    const specs = (text: string) => [...text.matchAll(IMPORT)].map((m) => m[1]);
    expect(
      specs(
        [
          "import { a } from '../payments/service';",
          "export { b } from '@/features/timeline/api';",
          "import '../terms/side-effect';",
          "const lazy = () => import('../messages/panel');",
          "const c = await import( '../invoices/pdf' );",
          "// see the timeline's import order, not an import: 'x'",
        ].join('\n'),
      ),
    ).toEqual(['../payments/service', '@/features/timeline/api', '../terms/side-effect', '../messages/panel', '../invoices/pdf']);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['payments', new Set(['timeline'])],
      ['timeline', new Set(['payments'])],
      ['terms', new Set<string>()],
    ]);
    expect(circles(graph)).toEqual(['payments -> timeline -> payments']);
  });
});
