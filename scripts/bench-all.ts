/**
 * `npm run bench`: every judged benchmark, one after the other, each run even when an earlier one
 * missed a target (each writes its own section of bench/results.md); exits 1 when any missed.
 * Arguments (e.g. `-- --pglite`) go to scripts/bench.ts, whose options they are.
 */
import { spawnSync } from 'node:child_process';

const BENCHES = ['bench', 'bench-publication', 'bench-search', 'bench-conversation', 'bench-invoices', 'bench-files'];
const missed: string[] = [];
for (const name of BENCHES) {
  const args = name === 'bench' ? process.argv.slice(2) : [];
  const run = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], { stdio: 'inherit' });
  if (run.status !== 0) missed.push(name);
}
if (missed.length) console.error(`bench: ${missed.join(', ')} missed a target or failed`);
process.exit(missed.length ? 1 : 0);
