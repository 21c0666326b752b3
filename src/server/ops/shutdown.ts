import type { FastifyInstance } from 'fastify';

/**
 * Closes the app the way a shutdown needs: no new connections (the listening socket closes), the
 * requests in flight answered (those arriving on open connections meanwhile too, with `Connection:
 * close`), and each kept-alive connection closed as soon as it is idle. Node closes the idle ones
 * once, when the server closes; one whose answer is sent later would otherwise stay open until its
 * keep-alive timeout (72 s), holding the shutdown.
 */
export async function closeApp(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

interface ShutdownLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  /** SHUTDOWN_TIMEOUT_S in ms: past it the process exits 1, whatever is still running */
  timeoutMs: number;
  log: ShutdownLog;
  /** Stops everything in order, given the time left; resolves when all is closed. */
  stop: (deadline: number) => Promise<void>;
  exit?: (code: number) => void;
}

/**
 * The handler of SIGTERM (and SIGINT): runs `stop` once, however often the signal comes, then
 * exits 0; exits 1 when `stop` fails or has not finished within the timeout. main.ts's `stop`:
 * the app stops accepting connections and finishes the requests in flight (app.close), then the job
 * worker stops fetching and waits for the running jobs' current step, then mail and the database
 * close.
 */
export function shutdownHandler(opts: ShutdownOptions): (signal: string) => Promise<void> {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | null = null;
  const run = async (signal: string) => {
    const started = Date.now();
    opts.log.info({ signal, timeoutSeconds: opts.timeoutMs / 1000 }, 'shutting down');
    const timer = setTimeout(() => {
      opts.log.error({ signal }, `shutdown did not finish within ${opts.timeoutMs / 1000} s; exiting`);
      exit(1);
    }, opts.timeoutMs);
    timer.unref();
    try {
      await opts.stop(started + opts.timeoutMs);
    } catch (err) {
      clearTimeout(timer);
      opts.log.error({ err }, 'shutdown failed');
      exit(1);
      return;
    }
    clearTimeout(timer);
    opts.log.info({ ms: Date.now() - started }, 'shut down');
    exit(0);
  };
  return (signal) => (running ??= run(signal));
}
