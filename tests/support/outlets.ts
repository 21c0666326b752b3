import type { Config } from '../../src/server/config';
import { pageCheckerFor } from '../../src/server/modules/placements/page-checker';

/**
 * The DNS stand-in of every API test: `localhost` is loopback, every other name does not exist.
 * A test can never make the page checker look up or reach a real host, whatever URL it sends.
 */
async function loopbackOnlyResolver(hostname: string): Promise<string[]> {
  if (hostname === 'localhost') return ['127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

/** The real page checker with the loopback-only resolver. */
export const testChecker = (config: Config) => pageCheckerFor(config, { resolve: loopbackOnlyResolver });
