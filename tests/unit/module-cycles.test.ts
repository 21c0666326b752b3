/**
 * The server's modules (src/server/modules/<thing>) and the client's features
 * (src/client/features/<thing>) import each other in one direction only: no circle of imports
 * between two or more of them, type imports included. ESLint's boundaries rule says which files may
 * be imported; this says the arrows never come back round.
 *
 * And over every file of src/ (issue 44): no circle of files that spans two units (a server module,
 * a client feature, an infrastructure folder of the server such as db/ or mail/, the rest of the
 * client by folder), none at all among the files of src/shared, and none between the server's
 * infrastructure folders and its modules taken as wholes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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


/** Every .ts/.tsx file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const ALIASES: [string, string][] = [
  ['@/', 'src/client/'],
  ['@shared/', 'src/shared/'],
];

/** The file an import names (relative or through the tsconfig aliases), or null for a package. */
function resolveImport(from: string, spec: string): string | null {
  const alias = ALIASES.find(([prefix]) => spec.startsWith(prefix));
  const base = spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : alias ? path.resolve(alias[1] + spec.slice(alias[0].length)) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return path.relative(process.cwd(), candidate);
  return null;
}

/** The file graph of src/: each file and the files it imports. */
function fileGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesUnder('src')) {
    const to = new Set<string>();
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, spec);
      if (target && target !== file) to.add(target);
    }
    graph.set(file, to);
  }
  return graph;
}

/**
 * The unit a file belongs to: a server module, a client feature, a folder of the server or client
 * (db, mail, lib, components, …), or, in src/shared, the file itself.
 */
function unitOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts[1] === 'shared') return file;
  if (parts[1] === 'server' && parts[2] === 'modules') return parts.slice(0, 4).join('/');
  if (parts[1] === 'client' && parts[2] === 'features') return parts.slice(0, 4).join('/');
  return parts.length > 3 ? parts.slice(0, 3).join('/') : file;
}

/** The strongly connected components of more than one node (Tarjan). */
function components(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) strong(v);
  return found;
}

describe('imports between the files of src/', () => {
  const files = fileGraph();

  it('no circle of files spans two units (modules, features, shared files, infrastructure folders)', () => {
    expect(files.size).toBeGreaterThan(300);
    const spanning = components(files).filter((c) => new Set(c.map(unitOf)).size > 1);
    expect(spanning.map((c) => c.join(' <-> '))).toEqual([]);
  });

  it("the server's infrastructure folders and its modules import each other without a circle", () => {
    // the composition root knows every part by design (the app, its start, the dependencies it hands out)
    const ROOT = new Set(['app.ts', 'main.ts', 'deps.ts'].map((f) => path.join('src', 'server', f)));
    const units = new Map<string, Set<string>>();
    for (const [file, to] of files) {
      if (!file.startsWith(`src${path.sep}server${path.sep}`) || ROOT.has(file)) continue;
      const from = unitOf(file);
      const set = units.get(from) ?? units.set(from, new Set()).get(from)!;
      for (const t of to) if (t.startsWith(`src${path.sep}server${path.sep}`) && !ROOT.has(t) && unitOf(t) !== from) set.add(unitOf(t));
    }
    for (const to of units.values()) for (const t of to) if (!units.has(t)) units.set(t, new Set());
    expect([...units.keys()].filter((u) => u.includes('modules/')).length).toBeGreaterThan(10);
    expect(circles(units)).toEqual([]);
  });

  it('finds a circle of files across units when there is one', () => {
    const graph = new Map([
      ['src/server/db/a.ts', new Set(['src/server/modules/x/b.ts'])],
      ['src/server/modules/x/b.ts', new Set(['src/server/db/a.ts'])],
      ['src/shared/c.ts', new Set<string>()],
    ]);
    expect(components(graph).filter((c) => new Set(c.map(unitOf)).size > 1)).toHaveLength(1);
  });
});
