/**
 * How many page checks this process runs at once: at most `concurrency` in all, and one at a time
 * per outlet host, so a scheduled sweep over many articles of one outlet never hammers it.
 * Waiting checks start in the order they came, skipping those whose host is busy.
 */
export interface CheckLimiter {
  run<T>(host: string, fn: () => Promise<T>): Promise<T>;
}

interface Waiting {
  host: string;
  start: () => void;
}

/** "www.outlet.com" and "outlet.com" are one outlet. */
function hostKey(host: string): string {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  return h.startsWith('www.') ? h.slice(4) : h;
}

export function createCheckLimiter(concurrency: number): CheckLimiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a whole number of at least 1');
  const busyHosts = new Set<string>();
  const waiting: Waiting[] = [];
  let active = 0;

  function startWhatCan() {
    for (let i = 0; i < waiting.length && active < concurrency; ) {
      const job = waiting[i];
      if (busyHosts.has(job.host)) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      active++;
      busyHosts.add(job.host);
      job.start();
    }
  }

  return {
    run<T>(host: string, fn: () => Promise<T>): Promise<T> {
      const key = hostKey(host);
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          // a function that throws before returning its promise still frees its place
          Promise.resolve()
            .then(fn)
            .then(resolve, reject)
            .finally(() => {
              active--;
              busyHosts.delete(key);
              startWhatCan();
            });
        };
        waiting.push({ host: key, start });
        startWhatCan();
      });
    },
  };
}
