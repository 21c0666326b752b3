/**
 * Issue 44: "a test compares each route's declared statuses with what the API suite saw it answer".
 * Runs after the API suite (`npm run test:api`), from what tests/support/route-statuses.ts recorded:
 * every status a route answered must be one its contract declares (lib/contract.ts), and every
 * route the suite called must have a contract. A 500 is left out: it is the answer to a fault of
 * the server, which no contract declares and some tests cause on purpose (a database that fails
 * half-way through a change); that bad input never gets one is the fuzz test's rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { STATUSES_DIR } from '../support/route-statuses';

type Seen = Record<string, { declared: number[] | null; answered: number[] }>;

it('every route answered only statuses its contract declares', () => {
  const files = readdirSync(STATUSES_DIR).filter((f) => f.endsWith('.json'));
  expect(files.length, `no recordings in ${STATUSES_DIR}: run the API suite first`).toBeGreaterThan(0);
  const all: Seen = {};
  for (const file of files) {
    const seen = JSON.parse(readFileSync(path.join(STATUSES_DIR, file), 'utf8')) as Seen;
    for (const [route, entry] of Object.entries(seen)) {
      const into = (all[route] ??= { declared: entry.declared, answered: [] });
      for (const s of entry.answered) if (!into.answered.includes(s)) into.answered.push(s);
    }
  }
  const withoutContract = Object.keys(all).filter((r) => r.includes(' /api/') && !r.startsWith('HEAD ') && !all[r].declared);
  expect(withoutContract, 'routes without a contract (lib/contract.ts `route`)').toEqual([]);
  const undeclared = Object.entries(all)
    .filter(([route, e]) => e.declared && !route.startsWith('HEAD '))
    .flatMap(([route, e]) => e.answered.filter((s) => s !== 500 && !e.declared!.includes(s)).map((s) => `${route} answered ${s}`));
  expect(undeclared, 'statuses a route answered without declaring them').toEqual([]);
});
