/**
 * The catalogue search's count as the browse page shows it (features/opportunities/api/search-count.ts):
 * X-Total-Count is exact up to SEARCH_COUNT_CAP, or `1000+` when more match; next pages carry none.
 */
import { describe, expect, it } from 'vitest';
import { countText, readTotalCount } from '../../src/client/features/opportunities/api/search-count';
import { SEARCH_COUNT_CAP } from '../../src/shared/constants';

describe('X-Total-Count, read and shown', () => {
  it('an exact number, the singular for one', () => {
    expect(readTotalCount('0')).toEqual({ total: 0, atLeast: false });
    expect(countText(readTotalCount('0')!)).toBe('0 opportunities');
    expect(countText(readTotalCount('1')!)).toBe('1 opportunity');
    expect(countText(readTotalCount('24')!)).toBe('24 opportunities');
    expect(countText(readTotalCount(String(SEARCH_COUNT_CAP))!)).toBe('1,000 opportunities');
  });

  it('more than the cap: the cap and a plus, always plural', () => {
    expect(readTotalCount(`${SEARCH_COUNT_CAP}+`)).toEqual({ total: SEARCH_COUNT_CAP, atLeast: true });
    expect(countText(readTotalCount(`${SEARCH_COUNT_CAP}+`)!)).toBe('1,000+ opportunities');
    expect(countText({ total: 1, atLeast: true })).toBe('1+ opportunities');
  });

  it('no header (a next page) or one that is no count: none', () => {
    for (const header of [null, '', 'many', '-1', '1.5', '+', '10++'])
      expect(readTotalCount(header), String(header)).toBeNull();
  });
});
