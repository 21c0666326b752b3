/**
 * First-visit JavaScript budget: the gzip size of every script a first visit to a page needs
 * (the entry, the page's lazy chunk and everything they import statically). Fails over budget.
 * Usage: tsx scripts/size.ts   (after `vite build`; reads dist/client/.vite/manifest.json)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const dist = path.resolve('dist/client');
type Chunk = { file: string; imports?: string[]; isEntry?: boolean };
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the build manifest: ${key}`);
    seen.add(key);
    closure(chunk.imports ?? [], seen);
  }
  return seen;
}

/** The bytes a gzip-only browser receives: the build's own .gz file where there is one. */
function gzipBytes(file: string): number {
  const full = path.join(dist, file);
  return existsSync(`${full}.gz`) ? statSync(`${full}.gz`).size : gzipSync(readFileSync(full)).length;
}
const gzipKb = (keys: Set<string>) => [...keys].reduce((sum, k) => sum + gzipBytes(manifest[k].file), 0) / 1024;

const pages: Record<string, string[]> = {
  '/auth': ['features/auth/pages/auth-page.tsx'],
  // a portal page also needs the shell, loaded beside it
  '/brand/opportunities': ['app/shell/app-shell.tsx', 'features/opportunities/pages/opportunities-page.tsx'],
};

let failed = false;
for (const [route, page] of Object.entries(pages)) {
  const kb = gzipKb(closure(['index.html', ...page]));
  const ok = kb <= BUDGET_KB;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${route.padEnd(22)} ${kb.toFixed(1).padStart(6)} KB gzip (budget ${BUDGET_KB} KB)`);
}
// a brand's first visit must not carry admin screens
const brandKeys = closure(['index.html', ...pages['/brand/opportunities']]);
const leaked = [...brandKeys].filter((k) => k.includes('features/admin-'));
if (leaked.length) {
  console.log(`OVER admin code in a brand's first visit: ${leaked.join(', ')}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
