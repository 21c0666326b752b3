/*
 * How many a search finds, as the server says it on the search's first page (X-Total-Count): the
 * exact number up to SEARCH_COUNT_CAP (shared/constants.ts), or `1000+` when more match (the server
 * stops counting there). No imports: tests/unit/search-count.test.ts reads this file as it is.
 */

/** `total` exactly, or, with `atLeast`, at least `total` (more than SEARCH_COUNT_CAP match). */
export interface SearchCount {
  total: number;
  atLeast: boolean;
}

/** X-Total-Count read: `null` when the answer has none (a next page) or one that is no count. */
export function readTotalCount(header: string | null): SearchCount | null {
  const m = /^(\d+)(\+)?$/.exec(header?.trim() ?? '');
  return m ? { total: Number(m[1]), atLeast: m[2] === '+' } : null;
}

/** "1 opportunity", "24 opportunities", "1,000+ opportunities". */
export function countText({ total, atLeast }: SearchCount): string {
  const word = total === 1 && !atLeast ? 'opportunity' : 'opportunities';
  return `${total.toLocaleString('en-US')}${atLeast ? '+' : ''} ${word}`;
}
