/**
 * A brand route with path parameters declares what it acts on (issue 58, "Access declared, not
 * spelled"): the check that keeps a member limited to clients to its clients' placements reads the
 * declaration, so a route cannot lose it by naming its parameter differently.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route } from '../../src/server/lib/contract';
import type { RoutePath } from '../../src/shared/api-paths';

// routes made up for the check (not in the server's list of paths)
const THINGS = '/api/brand/things/:placementId' as RoutePath;
const ADMIN_THINGS = '/api/admin/things/:id' as RoutePath;
const ALL_THINGS = '/api/brand/things' as RoutePath;

const contract = { tags: ['Placements'] as ['Placements'], summary: 'A thing of a placement', response: { 200: z.object({}) } };

describe('route contracts: what a brand route acts on', () => {
  it('refuses a brand route with path parameters that does not declare it', () => {
    const app = Fastify();
    expect(() => route(app, 'GET', THINGS, { ...contract, access: 'brand' }, async () => ({}))).toThrow(
      'GET /api/brand/things/:placementId: a brand route with path parameters declares what it acts on (actsOn)',
    );
  });

  it('refuses a declaration naming a parameter the path does not have', () => {
    const app = Fastify();
    expect(() =>
      route(app, 'GET', THINGS, { ...contract, access: 'brand', actsOn: { placement: 'paymentId' } }, async () => ({})),
    ).toThrow('actsOn names :paymentId, which the path does not have');
  });

  it('takes a declared placement parameter of any name, and routes without parameters as they are', () => {
    const app = Fastify();
    expect(() =>
      route(app, 'GET', THINGS, { ...contract, access: 'brand', actsOn: { placement: 'placementId' } }, async () => ({})),
    ).not.toThrow();
    expect(() => route(app, 'GET', ALL_THINGS, { ...contract, access: 'brand' }, async () => ({}))).not.toThrow();
    expect(() => route(app, 'GET', ADMIN_THINGS, { ...contract, access: 'admin' }, async () => ({}))).not.toThrow();
  });
});
