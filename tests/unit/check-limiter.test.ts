import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createCheckLimiter } from '../../src/server/outbound/limiter';

/** A promise the test settles when it wants: a check that runs until then. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

/** Lets every settled promise run its callbacks. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How the hosts of these tests group: "www." and case do not make another outlet. */
const site = (host: string) => host.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');

describe('createCheckLimiter', () => {
  it('never runs more than `concurrency` at once, nor two for one host', async () => {
    const limiter = createCheckLimiter(3);
    const hosts = ['a.test', 'www.b.test', 'c.test', 'A.test', 'd.test', 'b.test', 'www.a.test', 'e.test', 'c.test.', 'f.test'];
    let active = 0;
    let most = 0;
    const perHost = new Map<string, number>();
    let mostForOneHost = 0;
    const jobs = Array.from({ length: 40 }, (_, i) => {
      const host = hosts[i % hosts.length];
      return limiter.run(host, async () => {
        active++;
        most = Math.max(most, active);
        const n = (perHost.get(site(host)) ?? 0) + 1;
        perHost.set(site(host), n);
        mostForOneHost = Math.max(mostForOneHost, n);
        await sleep(i % 4);
        perHost.set(site(host), n - 1);
        active--;
        return i;
      });
    });
    expect(await Promise.all(jobs)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(most).toBe(3);
    expect(mostForOneHost).toBe(1);
    expect(active).toBe(0);
  });

  it('counts www. and the bare host as one outlet, and lets other hosts by meanwhile', async () => {
    const limiter = createCheckLimiter(10);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: string[] = [];
    const same = ['outlet.test', 'www.outlet.test', ' WWW.Outlet.Test. ', 'OUTLET.test'].map((host, i) =>
      limiter.run(host, async () => {
        started.push(host);
        await gates[i].promise;
      }),
    );
    const other = limiter.run('other.test', async () => void started.push('other.test'));
    await settle();
    expect(started).toEqual(['outlet.test', 'other.test']);
    await other;
    for (let i = 0; i < gates.length; i++) {
      gates[i].resolve();
      await settle();
      expect(started).toHaveLength(Math.min(i + 3, 5));
    }
    await Promise.all(same);
    expect(started).toEqual(['outlet.test', 'other.test', 'www.outlet.test', ' WWW.Outlet.Test. ', 'OUTLET.test']);
  });

  it('starts waiting checks in the order they came', async () => {
    const limiter = createCheckLimiter(1);
    const started: number[] = [];
    await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.run(`host${i}.test`, async () => void started.push(i))));
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('skips a check whose host is busy, keeping the order of the rest', async () => {
    const limiter = createCheckLimiter(2);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const job = (name: string) => {
      gates.set(name, deferred());
      return limiter.run(`${name[0]}.test`, async () => {
        started.push(name);
        await gates.get(name)?.promise;
      });
    };
    const all = Promise.all(['a1', 'a2', 'b1', 'a3', 'c1'].map(job));
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    gates.get('a1')?.resolve();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'a2']);
    // b's place goes to c1: a3 waits for a2 although it came first
    gates.get('b1')?.resolve();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'a2', 'c1']);
    gates.get('a2')?.resolve();
    gates.get('c1')?.resolve();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'a2', 'c1', 'a3']);
    gates.get('a3')?.resolve();
    await all;
  });

  it('a check that throws or rejects frees its place and its host', async () => {
    const limiter = createCheckLimiter(1);
    const thrown = limiter.run('outlet.test', () => {
      throw new Error('thrown before any promise');
    });
    const rejected = limiter.run('outlet.test', () => Promise.reject(new Error('rejected')));
    const next = limiter.run('www.outlet.test', async () => 'ran');
    const elsewhere = limiter.run('other.test', async () => 'ran too');
    await expect(thrown).rejects.toThrow('thrown before any promise');
    await expect(rejected).rejects.toThrow('rejected');
    await expect(next).resolves.toBe('ran');
    await expect(elsewhere).resolves.toBe('ran too');
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a concurrency of %s with a RangeError', (concurrency) => {
    expect(() => createCheckLimiter(concurrency)).toThrow(RangeError);
  });
});
