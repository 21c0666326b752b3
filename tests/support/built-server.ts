import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** The project's root, where the built server is started from. */
export const ROOT = path.resolve(__dirname, '../..');

/** The very bundle `npm start` runs, built from the current source into a folder of its own under .tmp. */
export function buildServerBundle(prefix: string): string {
  const outDir = mkdtempSync(path.join(ROOT, '.tmp', `${prefix}-build-`));
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', outDir], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('esbuild failed');
  return outDir;
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
