import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The security headers every answer carries, as helmet writes them for our policy. They depend on
 * the configuration only, never on the request, so helmet is asked once, against a response that
 * records what it is told, and each request copies the result onto its reply: helmet's own
 * per-request path runs a dozen middlewares that each validate and set one header on the raw
 * response, which Node then merges with the reply's headers again when the answer is written.
 */
export function securityHeaders(options: { production: boolean }): Readonly<Record<string, string>> {
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    hsts: options.production ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    finished = true;
    failure = err;
  });
  // never start without them: a helmet that answered later, or not at all, stops the start
  if (failure) throw failure;
  if (!finished || !headers['content-security-policy']) throw new Error('helmet did not give the security headers');
  return Object.freeze(headers);
}
