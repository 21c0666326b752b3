import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root (the folder holding package.json), found from wherever this module runs: its
 * source (src/server/, under tsx and the tests) or the built server bundle (dist/server/main.js).
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const projectRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));
/** The built client (`npm run build`): index.html and its assets. */
export const clientDistDir = path.join(projectRoot, 'dist', 'client');
/** The generated SQL migrations (drizzle-kit), committed. */
export const migrationsDir = path.join(projectRoot, 'drizzle');
/** The terms shipped with Byline, shown unless TERMS_FILE names an operator's own. */
export const defaultTermsFile = path.join(projectRoot, 'content', 'terms.md');
