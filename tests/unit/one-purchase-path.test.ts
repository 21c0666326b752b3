/**
 * One purchase path (issue 58, decision 046): a paid session is booked in one place. In src/server
 * only payments/purchase.ts inserts a payment for a paid session, and the swap's top-up (which pays
 * a difference, not a placement) the only other; the old second fulfilment is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../src/server');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

const sources = files(ROOT).map((f) => ({ file: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));
const matching = (re: RegExp) => sources.filter((s) => re.test(s.text)).map((s) => s.file).sort();

describe('one purchase path', () => {
  it('only purchase.ts (and the swap top-up) inserts a payment', () => {
    expect(matching(/\.insert\(payments\)|INSERT INTO "?payments\b/i)).toEqual(['modules/payments/purchase.ts', 'modules/payments/swap.ts']);
  });

  it('only purchase.ts inserts a placement or records a paid entry; the top-up alone charges beside it', () => {
    expect(matching(/\.insert\(placements\)|INSERT INTO "?placements\b/i)).toEqual(['modules/payments/purchase.ts']);
    expect(matching(/await appendCharge\(/)).toEqual(['modules/payments/purchase.ts', 'modules/payments/swap.ts']);
    expect(matching(/recordEvent\([^)]*'paid'/)).toEqual(['modules/payments/purchase.ts']);
  });

  it('the second fulfilment is gone', () => {
    expect(matching(/\bfulfilOrder\b|\bpayTestOrder\b|\borderForSession\b|\bcheckoutForSession\b/)).toEqual([]);
  });
});
