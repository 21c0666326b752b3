/**
 * The money ledger's one write path (decision 041): in src/server, only modules/ledger/ledger.ts
 * appends a movement or inserts a part refund's request; no file reads or writes a refunded amount of
 * the payment's own (`payments.refunded_amount` is gone, drizzle/0046); and
 * every place that makes a payment appends its charge in the same function.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../src/server');
const LEDGER = 'modules/ledger/ledger.ts';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

const sources = files(ROOT).map((f) => ({ file: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));

/** The files, other than the ledger's and the schema, whose code matches `re`. */
const writersOf = (re: RegExp) => sources.filter((s) => s.file !== LEDGER && s.file !== 'db/schema.ts' && re.test(s.text)).map((s) => s.file);

describe('the ledger is written in one place', () => {
  it('no other file appends a movement', () => {
    expect(writersOf(/insert\(moneyMovements\)|INSERT INTO "?money_movements/i)).toEqual([]);
  });

  it('no other file inserts a part refund request (it is made with its movement, in one statement)', () => {
    expect(writersOf(/insert\(paymentRefunds\)|INSERT INTO "?payment_refunds/i)).toEqual([]);
  });

  it('no file reads or writes a refunded amount of the payment row (the ledger is the only one)', () => {
    const uses = sources
      .filter((s) => /payments\.refundedAmount|set\(\{[^}]*\brefundedAmount\s*:|\b(?:p|payments)\.refunded_amount|refunded_amount\s*=(?!=)/.test(s.text))
      .map((s) => s.file);
    expect(uses).toEqual([]);
  });

  it('every file that inserts a payment appends its charge', () => {
    const makers = sources.filter((s) => /insert\(payments\)/.test(s.text));
    expect(makers.map((s) => s.file).sort()).toEqual(['modules/payments/purchase.ts', 'modules/payments/swap.ts']);
    for (const m of makers) expect(m.text.match(/insert\(payments\)/g)!.length, m.file).toBe(m.text.match(/await appendCharge\(/g)?.length ?? 0);
  });
});
