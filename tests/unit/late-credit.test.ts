import { describe, expect, it } from 'vitest';
import { lateCreditCents, lateCreditSentence } from '../../src/shared/late-credit';

/** Issue 59, decision 049: the late credit's arithmetic, in whole cents, half-up, under the cap. */
describe('the late credit', () => {
  const terms = { percent: 2, maxPercent: 20 };
  it('is the percent of the price, half-up to the cent', () => {
    expect(lateCreditCents(12345, 0, terms)).toBe(247); // 246.9
    expect(lateCreditCents(1025, 0, terms)).toBe(21); // 20.5
    expect(lateCreditCents(1024, 0, terms)).toBe(20); // 20.48
    expect(lateCreditCents(12375, 0, terms)).toBe(248); // 247.5
  });

  it('never takes the total past the cap: the last credit is what is left under it', () => {
    let total = 0;
    const credits: number[] = [];
    for (let day = 1; day <= 11; day++) {
      const c = lateCreditCents(12345, total, terms);
      if (c > 0) credits.push(c);
      total += c;
    }
    expect(credits).toEqual([247, 247, 247, 247, 247, 247, 247, 247, 247, 246]);
    expect(total).toBe(2469);
    expect(lateCreditCents(12345, 2469, terms)).toBe(0);
  });

  it('is said in one sentence', () => {
    expect(lateCreditSentence(terms)).toBe('Late credit: 2% for each business day late, up to 20%');
  });
});
