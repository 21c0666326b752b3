import type { FastifyInstance } from 'fastify';

/** What a request refused for overload is told (with `Retry-After`). */
export const OVERLOADED = 'Byline is busy right now: please try again in a moment';

/**
 * A bounded queue in front of the database (issue 61, "graceful overload"): at most `max` API
 * requests are worked on at once. Past that the server answers 503 with `Retry-After` at once,
 * instead of queueing thousands of requests behind the pool's few connections until each one
 * times out, with their bodies and answers held in memory meanwhile (RSS grew to 545 MB at 200
 * requests a second offered). A request counts from its arrival until its answer is sent or its
 * connection closes. Static assets, health, readiness and metrics are not counted: they touch no
 * pooled connection, and a load balancer must still see the instance alive when it is busy.
 */
export function registerOverloadGuard(app: FastifyInstance, max: number) {
  let inFlight = 0;
  app.addHook('onRequest', (req, reply, done) => {
    if (!req.url.startsWith('/api/')) return done();
    if (inFlight >= max) {
      reply.code(503).header('Retry-After', '1').send({ message: OVERLOADED, code: 'overloaded' });
      return;
    }
    inFlight++;
    let counted = true;
    // 'close' follows both a sent answer and a connection the client dropped
    reply.raw.once('close', () => {
      if (counted) inFlight--;
      counted = false;
    });
    done();
  });
  return { inFlight: () => inFlight };
}
