import path from 'node:path';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** Writes .br and .gz beside every text asset; the server sends them to browsers that accept them. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'byline-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data));
      }
    },
  };
}

const client = (file: string) => path.resolve(import.meta.dirname, 'src/client', file);
/** The pages whose first visit has a size budget (scripts/size.ts) and a Lighthouse target. */
const FIRST_VISITS = {
  auth: [client('features/auth/pages/auth-page.tsx')],
  brand: [client('app/shell/app-shell.tsx'), client('features/opportunities/pages/opportunities-page.tsx')],
};

/**
 * Fewer, larger chunks for the budgeted first visits. By default every lazy page's shared
 * dependencies become small chunks of their own (an icon, a Radix helper: 30 and more files for
 * /brand/opportunities), and each costs a request; over HTTP/1.1 on a slow phone that is most of the
 * load time. Here the modules a first visit needs beyond the entry and the page go into at most three chunks:
 * those both visits need, those only /auth needs, those only the brand's page needs. Other pages
 * keep the default splitting (and may load one of these chunks for a module they share).
 */
function firstVisitChunks(): { plugin: Plugin; group: (id: string) => string | null } {
  let auth = new Set<string>();
  let brand = new Set<string>();
  let entry = new Set<string>();
  const plugin: Plugin = {
    name: 'byline-first-visit-chunks',
    apply: 'build',
    buildEnd() {
      const closure = (roots: string[]) => {
        const seen = new Set<string>();
        const walk = (id: string) => {
          if (seen.has(id)) return;
          seen.add(id);
          for (const dep of this.getModuleInfo(id)?.importedIds ?? []) walk(dep);
        };
        roots.forEach(walk);
        return seen;
      };
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      entry = closure(entries);
      auth = closure(FIRST_VISITS.auth);
      brand = closure(FIRST_VISITS.brand);
    },
  };
  const group = (id: string) => {
    // the pages and the shell stay chunks of their own (lazy entries)
    if (entry.has(id) || roots.has(id)) return null;
    const a = auth.has(id);
    const b = brand.has(id);
    return a && b ? 'first-visit' : a ? 'first-visit-auth' : b ? 'first-visit-brand' : null;
  };
  return { plugin, group };
}
const RADIX_LAZY =
  /[\\/]@radix-ui[\\/]react-(menu|dropdown-menu|dialog|alert-dialog|popover|select|tooltip|toast|popper|arrow|focus-scope|focus-guards|checkbox|radio-group|scroll-area|hover-card|navigation-menu|context-menu|menubar)[\\/]/;
const roots = new Set(Object.values(FIRST_VISITS).flat());
const chunks = firstVisitChunks();

export default defineConfig({
  root: 'src/client',
  plugins: [react(), tailwindcss(), precompress(), chunks.plugin],
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src/client'),
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
    },
  },
  // the manifest lets scripts/size.ts measure what a first visit downloads
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // a group's modules' own imports are in the same or an earlier group (closures), so no
        // module needs pulling along and no chunk cycle can form
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            // everything the entry needs in one file, not a dozen (react, query, router, ...)
            { name: 'app', tags: ['$initial'], priority: 2 },
            // every icon in one file (a few KB) instead of one request per icon
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 1 },
            // Radix's small shared parts and the simple components the first visits draw; the
            // overlays (menus, dialogs, popper/floating-ui, toasts) stay in their lazy chunks
            { name: 'radix', test: (id) => /node_modules[\\/](@radix-ui|radix-ui)[\\/]/.test(id) && !RADIX_LAZY.test(id), priority: 1 },
            { name: chunks.group, debugName: 'first-visit' },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:5000', '/uploads': 'http://localhost:5000', '/share': 'http://localhost:5000', '/unsubscribe': 'http://localhost:5000' } },
});
