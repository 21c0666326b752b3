import type { FastifyRequest } from 'fastify';
import { notFound } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

/**
 * The id a route names (`:id`, `:paymentId`…), a uuid. Anything else is answered like an id that
 * does not exist: 404 with `message` (the same as for another brand's id).
 */
export function idParam(req: FastifyRequest, name: string, message: string): string {
  const value = (req.params as Record<string, unknown>)[name];
  if (typeof value !== 'string' || !isUuid(value)) throw notFound(message);
  return value;
}
