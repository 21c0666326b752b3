import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Builds the server as `npm start` runs it (`npm run build:server`: one esbuild bundle, well under a
 * second) and returns the arguments that start it with plain node, so the scripts measure and
 * attack the very artifact production runs, built from the current source.
 */
export function builtServerArgs(): string[] {
  const r = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build:server failed');
  return serverArgs(path.join(root, 'dist/server/main.js'));
}

/** The arguments that start a built server's `main.js` as `npm start` does (its flags: package.json; docs/decisions/016). */
export function serverArgs(main: string): string[] {
  return ['--enable-source-maps', '--max-semi-space-size=16', main];
}
