import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/server/config';

describe('README configuration table', () => {
  it('names exactly the variables src/server/config.ts reads', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Scripts'));
    const documented = new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    const read = new Set(Object.keys(configSchema.shape));
    expect([...read].filter((k) => !documented.has(k))).toEqual([]);
    expect([...documented].filter((k) => !read.has(k) && k !== 'PORT')).toEqual([]);
  });
});
