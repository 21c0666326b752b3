// The part of autocannon 9's programmatic API that the bench scripts use (the package ships no types).
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** stop after this many requests in all (instead of a duration) */
    amount?: number;
    /** requests a second over all connections */
    overallRate?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    /** called with each connection's client: its 'response' event gives the status and the bytes received (headers and body) */
    setupClient?: (client: { on(event: 'response', listener: (status: number, bytes: number, durationMs: number) => void): void }) => void;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }
  /** A run in progress: awaited, its result; `stop` ends it early; 'response' gives each answer's latency. */
  export interface Run extends Promise<Result> {
    stop(): void;
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, durationMs: number) => void): this;
  }
  function autocannon(opts: Options): Run;
  export default autocannon;
}

// the queue whose addBody scripts/bench.ts replaces (see BROWSER_HEADERS there)
declare module 'autocannon/lib/pipelinedRequestsQueue.js' {
  export default class PipelinedRequestsQueue {
    addBody(data: Buffer): void;
  }
}
