import http from 'node:http';

/**
 * The load generator of `npm run bench`: an open loop. Requests are sent on a fixed schedule (one
 * every 1/rate seconds, whatever the earlier ones are doing), and each one's latency is measured
 * from the moment it was due, not from when it could be sent: a server that falls behind is charged
 * for the queue it builds (no coordinated omission). Keep-alive sockets on one agent, as many as
 * the requests in flight need; bodies are read and counted, not kept.
 */

export interface Planned {
  /** the route, e.g. `GET /api/brand/projects/:id/messages`: latencies are grouped by it */
  endpoint: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  cookie: string;
  body?: string;
  /** the request's number in the mix's catalogue, sent as `x-bench-id` (the bare server runs that request's statements) */
  id: number;
}

interface EndpointStats {
  latencies: number[];
  errors: number;
  /** status (or `timeout`, `error`) → count, for the answers that were not 2xx */
  failures: Map<string, number>;
  bytes: number;
}

export interface LoadResult {
  rate: number;
  seconds: number;
  sent: number;
  /** the answers that came back in the measured window's requests (all of them: the run waits for the last) */
  done: number;
  byEndpoint: Map<string, EndpointStats>;
  /** the most a request was sent after its time (the generator's own lag), ms */
  maxSendLagMs: number;
  /** the most requests in flight at once */
  maxInFlight: number;
}

/** The `p`th percentile (nearest rank) of `sorted`, ascending. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const TIMEOUT_MS = 10_000;

/** What a browser sends with the portal's fetches: it decides what the server sends (compressed JSON). */
const BROWSER_HEADERS = { accept: 'application/json', 'accept-encoding': 'br, gzip' };

/**
 * `rate` requests a second for `seconds`, each the next of `next()`, against `origin`. The first
 * `warmupSeconds` run at the same rate but are not counted. Resolves once every request sent has
 * answered (or timed out after 10 s).
 */
export async function openLoop(options: {
  origin: string;
  rate: number;
  seconds: number;
  warmupSeconds?: number;
  next: () => Planned;
}): Promise<LoadResult> {
  const { origin, rate, seconds } = options;
  const warmup = options.warmupSeconds ?? 0;
  const url = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2048, maxFreeSockets: 2048 });
  const byEndpoint = new Map<string, EndpointStats>();
  const statsOf = (endpoint: string) => {
    let s = byEndpoint.get(endpoint);
    if (!s) byEndpoint.set(endpoint, (s = { latencies: [], errors: 0, failures: new Map(), bytes: 0 }));
    return s;
  };
  const interval = 1000 / rate;
  const warmupCount = Math.round(rate * warmup);
  const total = warmupCount + Math.round(rate * seconds);
  let sent = 0;
  let done = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let maxSendLagMs = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((r) => (finished = r));

  const send = (p: Planned, due: number, counted: boolean) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let settled = false;
    const end = (status: number | 'timeout' | 'error', bytes: number) => {
      if (settled) return;
      settled = true;
      inFlight--;
      if (counted) {
        const s = statsOf(p.endpoint);
        s.latencies.push(performance.now() - due);
        s.bytes += bytes;
        if (typeof status !== 'number' || status >= 400) {
          s.errors++;
          const key = String(status);
          s.failures.set(key, (s.failures.get(key) ?? 0) + 1);
        }
        done++;
      }
      if (sent === total && inFlight === 0) finished();
    };
    const headers: Record<string, string | number> = { ...BROWSER_HEADERS, cookie: p.cookie, 'x-bench-id': p.id };
    if (p.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(p.body);
    }
    if (p.method !== 'GET') headers.origin = origin;
    const req = http.request(
      { agent, host: url.hostname, port: url.port, method: p.method, path: p.path, headers },
      (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () => end(res.statusCode ?? 0, bytes));
        res.on('error', () => end('error', bytes));
      },
    );
    req.setTimeout(TIMEOUT_MS, () => {
      end('timeout', 0);
      req.destroy();
    });
    req.on('error', () => end('error', 0));
    req.end(p.body);
  };

  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && t0 + sent * interval <= now) {
        const due = t0 + sent * interval;
        maxSendLagMs = Math.max(maxSendLagMs, now - due);
        const counted = sent >= warmupCount;
        sent++;
        send(options.next(), due, counted);
      }
      if (sent < total) setTimeout(tick, Math.max(0, t0 + sent * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  if (inFlight > 0) await allDone;
  agent.destroy();
  for (const s of byEndpoint.values()) s.latencies.sort((a, b) => a - b);
  return { rate, seconds, sent: total - warmupCount, done, byEndpoint, maxSendLagMs, maxInFlight };
}

/** The worst endpoint of a run by p99, and whether every endpoint kept its p99 under `p99Ms` without an error. */
export function verdict(r: LoadResult, p99Ms: number) {
  let worst = { endpoint: '', p99: 0 };
  let errors = 0;
  for (const [endpoint, s] of r.byEndpoint) {
    const p99 = percentile(s.latencies, 99);
    if (p99 > worst.p99) worst = { endpoint, p99 };
    errors += s.errors;
  }
  return { ok: worst.p99 < p99Ms && errors === 0 && r.done === r.sent, worst, errors };
}
