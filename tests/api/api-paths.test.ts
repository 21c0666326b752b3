/**
 * The one list of the server's paths (src/shared/api-paths.ts, issue 58) is the server's routes,
 * no more and no fewer: `route()` only takes a path from it (a type), and this test fails on a
 * listed path no route answers (a client URL to nowhere).
 */
import { describe, expect, it } from 'vitest';
import { API_ALIASES, API_PATHS, PAGE_PATHS } from '../../src/shared/api-paths';
import { createTestApp } from '../support/app';

describe('the list of paths and the server', () => {
  it('has exactly the paths the server registers', async () => {
    const registered = new Set<string>();
    const t = await createTestApp({}, { onRoute: (r) => void registered.add(r.url) });
    try {
      // with the older paths of placements' routes, which answer as their new ones (deprecated)
      const listed = new Set<string>([...API_PATHS, ...PAGE_PATHS, ...Object.keys(API_ALIASES)]);
      expect([...listed].filter((p) => !registered.has(p))).toEqual([]);
      // the built client's files are not routes of the API (served only with a built client)
      expect([...registered].filter((p) => !listed.has(p) && p.startsWith('/api/'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
