/**
 * `npm run build:server [-- <outdir>]`: the server as one esbuild bundle (dist/server/main.js) that plain node
 * runs. Dependencies stay in node_modules, except drizzle-orm: Node 24 loads an ES module graph of
 * hundreds of files with a large transient heap (measured: drizzle-orm alone, ~90 MB of garbage that
 * V8 then keeps as resident memory), while inside the bundle it costs nothing extra.
 *
 * The PDF renderer's thread has an entry of its own, and every file of the bundle sits in one
 * directory, so the code that starts the thread finds it beside itself whichever file that code
 * ends up in (src/server/modules/invoices/render-pool.ts).
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { build } from 'esbuild';

const BUNDLED = new Set(['drizzle-orm']);
const { dependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints: { main: 'src/server/main.ts', 'render-worker': 'src/server/modules/invoices/render-worker.ts' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: [...external, 'pg-native'],
  outdir: process.argv[2] ?? 'dist/server',
  chunkNames: '[name]-[hash]',
  sourcemap: true,
  logLevel: 'warning',
});
