import { describe, expect, it } from 'vitest';
import { tryAgainIn } from '../../src/server/lib/rate-limit';

describe('tryAgainIn: when a refused request may be tried again, in words', () => {
  it.each([
    [0.2, 'in 1 second'],
    [1, 'in 1 second'],
    [44.1, 'in 45 seconds'],
    [60, 'in 1 minute'],
    [61, 'in 2 minutes'],
    [59 * 60, 'in 59 minutes'],
    [59 * 60 + 1, 'in an hour'],
    [3600, 'in an hour'],
    [3601, 'in 61 minutes'],
    [119 * 60, 'in 119 minutes'],
    [120 * 60, 'in 2 hours'],
    [5 * 3600 - 1, 'in 5 hours'],
  ])('%s s reads "%s"', (seconds, words) => {
    expect(tryAgainIn(seconds)).toBe(words);
  });
});
