/**
 * PostgreSQL restarted under load: the app reconnects by itself. A throwaway PostgreSQL cluster of
 * our own (initdb in a temporary directory, trust auth, 127.0.0.1 on a free port; the machine's
 * shared server is never touched) serves one real server process (the built dist/server/main.js) while
 * brands browse, check out, pay through the built-in checkout and autosave briefs. PostgreSQL is
 * stopped twice under that load, `pg_ctl -m immediate` (a crash: no checkpoint, clients cut off)
 * and `-m fast`, kept down for a few seconds, and started again. Checked:
 *   - the same process (same PID, never restarted) keeps answering: during the outage every
 *     request gets an answer, a 503 with a clear message or a success; none hangs, none is a 500;
 *   - once PostgreSQL is back, requests succeed again within RECOVERY_LIMIT_MS without any action;
 *   - every write acknowledged before, during or after the outages is there (payments once each,
 *     the last acknowledged autosave); a pay whose answer was a 503 completes when sent again;
 *   - pg-boss still works after the restarts: mails queued by the load are delivered by their
 *     `mail-send` jobs after the last restart, and a checkout hold made to expire afterwards is
 *     closed by the `expire-checkout-holds` cron job (it runs each minute: up to ~70 s wait);
 *   - the database is consistent (harness checkDatabase).
 * The binaries are taken from FAULTS_PG_BIN (default /usr/lib/postgresql/15/bin); without them the
 * leg is skipped with a message. As root they are run as the `postgres` user (runuser).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Client, checkDatabase, exited, freePort, logTail, must, setup, sleep, start, type Answer } from './harness';

const run = promisify(execFile);
const PG_BIN = process.env.FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const RECOVERY_LIMIT_MS = 15_000;
/** A request that takes longer than this counts as hung. */
const REQUEST_TIMEOUT_MS = 20_000;
const UNAVAILABLE = 'The service is temporarily unavailable, please try again';

/** A PostgreSQL cluster in a temporary directory, run as the `postgres` user when we are root. */
async function throwawayCluster() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'byline-pg-'));
  const data = path.join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout);
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout);
    chownSync(root, uid, gid);
  }
  const pgRun = (bin: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, bin), ...args])
      : run(path.join(PG_BIN, bin), args);
  const port = await freePort();
  await pgRun('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  let running = false;
  const cluster = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await pgRun('pg_ctl', [
        '-D',
        data,
        '-l',
        path.join(root, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${port} -c listen_addresses=127.0.0.1 -k ${root} -c max_connections=60`,
        'start',
      ]);
      running = true;
    },
    async stop(mode: 'immediate' | 'fast') {
      await pgRun('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async remove() {
      if (running) await cluster.stop('immediate').catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
  return cluster;
}

type Phase = 'steady' | 'outage' | 'recovering';

export async function runPgRestart() {
  if (!['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(path.join(PG_BIN, b)))) {
    console.log(
      `faults pg-restart: SKIPPED: no PostgreSQL binaries in ${PG_BIN} (set FAULTS_PG_BIN); "PostgreSQL restarted under load" was not tested`,
    );
    return;
  }
  const label = 'faults pg-restart';
  const cluster = await throwawayCluster();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-faults-'));
  let server: Awaited<ReturnType<typeof start>> | undefined;
  try {
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE byline');
    await admin.end();
    const databaseUrl = cluster.url.replace(/\/postgres$/, '/byline');
    const direct = async <T>(fn: (c: pg.Client) => Promise<T>) => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        return await fn(c);
      } finally {
        await c.end();
      }
    };

    const port = await freePort();
    server = await start({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, port);
    const pid = server.proc.pid;
    const { opportunities, brands } = await setup(server.base, { brands: 6 });

    const state = { phase: 'steady' as Phase, stop: false };
    const stats = {
      requests: 0,
      ok: 0,
      unavailable: { steady: 0, outage: 0, recovering: 0 } as Record<Phase, number>,
      hung: 0,
      wrong: [] as string[],
      byStatus: {} as Record<string, number>,
    };
    const paid = new Map<string, { brand: number; paymentId: string }>();
    /** pays answered 503: may or may not have completed; sent again at the end */
    const uncertainPays = new Map<string, number>();
    const briefs = new Map<string, { acked: string; later: Set<string>; brand: number }>();

    /** One request of the load: its answer, or undefined when it was a 503 (counted). */
    const call = async (c: Client, method: string, url: string, body?: unknown): Promise<Answer | undefined> => {
      stats.requests++;
      const phase = state.phase;
      let a: Answer;
      try {
        a = await c.req(method, url, body, { timeoutMs: REQUEST_TIMEOUT_MS });
      } catch (err) {
        if (err instanceof Error && err.name === 'TimeoutError') {
          stats.hung++;
          return undefined;
        }
        await sleep(300);
        const died = server!.proc.exitCode ?? server!.proc.signalCode;
        throw new Error(
          `${label}: ${method} ${url} got no answer (${String(err)})${died !== null ? `: the app exited (${died})` : ''}\n${logTail(server!)}`,
        );
      }
      stats.byStatus[a.status] = (stats.byStatus[a.status] ?? 0) + 1;
      if (a.status === 503 && a.body?.message === UNAVAILABLE) {
        // a request that began or ended outside the steady phases met the outage
        stats.unavailable[phase !== 'steady' ? phase : state.phase]++;
        await sleep(100);
        return undefined;
      }
      if (a.status !== 200) stats.wrong.push(`${method} ${url} → ${a.status} ${JSON.stringify(a.body)} (${phase})`);
      else stats.ok++;
      return a;
    };

    const load = Promise.all(
      brands.map(async (c, b) => {
        for (let n = 0; !state.stop; n++) {
          await call(c, 'GET', '/api/opportunities');
          const co = await call(c, 'POST', '/api/payments/checkout', {
            opportunityId: opportunities[(n + b) % opportunities.length],
          });
          if (co?.status !== 200) continue;
          const sessionId = String(co.body.url).split('/').pop()!;
          uncertainPays.set(sessionId, b);
          const pay = await call(c, 'POST', `/api/payments/checkout/${sessionId}/pay`);
          if (pay?.status !== 200) continue;
          uncertainPays.delete(sessionId);
          paid.set(sessionId, { brand: b, paymentId: pay.body.paymentId });
          const entry = { acked: '', later: new Set<string>(), brand: b };
          briefs.set(pay.body.paymentId, entry);
          for (let v = 0; v < 2; v++) {
            const value = `save ${n}.${v}`;
            entry.later.add(value);
            const save = await call(c, 'POST', `/api/brand/brief/${pay.body.paymentId}`, {
              part1Json: { personOrBrandName: value },
            });
            if (save?.status !== 200) continue;
            entry.acked = value;
            entry.later.clear();
          }
        }
      }),
    );

    // a failure of the load (e.g. the app died) stops the outage sequence at its next step and is
    // raised by `await load`; it must not end the process unhandled (the cluster would be left)
    let loadFailed = false;
    load.catch(() => {
      loadFailed = true;
      state.stop = true;
    });
    const step = async (ms: number) => {
      await sleep(ms);
      if (loadFailed) await load;
    };

    /** PostgreSQL down for `downMs` under the load, then up; ms until the app answers again. */
    const outage = async (mode: 'immediate' | 'fast', downMs: number) => {
      state.phase = 'outage';
      await cluster.stop(mode);
      await step(downMs);
      state.phase = 'recovering';
      await cluster.start();
      const upAt = Date.now();
      // a signed-in read: the session lookup needs the database
      const probe = brands[0];
      for (;;) {
        const a = await probe
          .req('GET', '/api/user', undefined, { timeoutMs: REQUEST_TIMEOUT_MS })
          .catch(() => undefined);
        if (a?.status === 200) break;
        if (loadFailed) await load;
        if (Date.now() - upAt > RECOVERY_LIMIT_MS)
          throw new Error(
            `${label}: after pg_ctl ${mode} stop and start the app did not answer within ${RECOVERY_LIMIT_MS} ms (last: ${a?.status})\n${logTail(server!)}`,
          );
        await sleep(50);
      }
      const recovered = Date.now() - upAt;
      // in-flight requests of the outage settle; from here on the app must be steady again
      await step(1000);
      state.phase = 'steady';
      return recovered;
    };

    await step(3000);
    const paidBeforeOutage = paid.size;
    const recoveries: { mode: string; ms: number }[] = [];
    recoveries.push({ mode: 'immediate', ms: await outage('immediate', 3000) });
    await step(3000);
    recoveries.push({ mode: 'fast', ms: await outage('fast', 3000) });
    const recoveredAt = new Date();
    await step(3000);
    state.stop = true;
    await load;

    if (server.proc.exitCode !== null || server.proc.signalCode !== null || server.proc.pid !== pid)
      throw new Error(`${label}: the app process exited (${server.proc.exitCode ?? server.proc.signalCode})`);
    if (stats.hung) throw new Error(`${label}: ${stats.hung} requests hung for ${REQUEST_TIMEOUT_MS} ms`);
    if (stats.wrong.length)
      throw new Error(
        `${label}: ${stats.wrong.length} unexpected answers:\n  ${stats.wrong.slice(0, 10).join('\n  ')}`,
      );
    if (stats.unavailable.steady)
      throw new Error(
        `${label}: ${stats.unavailable.steady} answers 503 while PostgreSQL was up and the app recovered`,
      );
    if (!stats.unavailable.outage) throw new Error(`${label}: no request met the outage (the load did not run?)`);

    // a pay whose answer was a 503 may or may not have been applied: sending it again completes it once
    let retried = 0;
    for (const [sessionId, b] of uncertainPays) {
      const again = await brands[b].req('POST', `/api/payments/checkout/${sessionId}/pay`);
      if (again.status !== 200) throw new Error(`${label}: pay of ${sessionId} sent again answered ${again.status}`);
      paid.set(sessionId, { brand: b, paymentId: again.body.paymentId });
      retried++;
    }
    // acknowledged writes are there
    const lists = await Promise.all(brands.map((c) => c.all('/api/brand/payments?limit=200')));
    for (const [sessionId, { brand, paymentId }] of paid) {
      const found = (lists[brand].body as { id: string }[]).filter((p) => p.id === paymentId).length;
      if (found !== 1) throw new Error(`${label}: payment ${paymentId} (checkout ${sessionId}) found ${found} times`);
    }
    let ackedSaves = 0;
    for (const [paymentId, { acked, later, brand }] of briefs) {
      if (!acked && !later.size) continue;
      const brief = must(await brands[brand].req('GET', `/api/brand/brief/${paymentId}`), 'read brief');
      const got = brief.source === 'saved' ? (brief.part1Json?.personOrBrandName ?? '') : '';
      if (got !== acked && !later.has(got))
        throw new Error(`${label}: brief of ${paymentId} holds "${got}", acknowledged "${acked}"`);
      if (acked) ackedSaves++;
    }

    // pg-boss after the restarts: mails keep going out through their mail-send jobs (the load queued
    // two per payment), and a hold whose time is up is closed by the expire-checkout-holds cron job
    const jobsFrom = Date.now();
    const buyer = brands[0];
    const stale = must(
      await buyer.req('POST', '/api/payments/checkout', { opportunityId: opportunities[1] }),
      'checkout',
    );
    const staleSession = String(stale.url).split('/').pop()!;
    await direct((c) =>
      c.query(`UPDATE checkouts SET expires_at = now() - interval '1 minute' WHERE provider_session_id = $1`, [
        staleSession,
      ]),
    );
    const MAILS_AFTER = 3;
    let mailMs = 0;
    let sweepMs = 0;
    for (;;) {
      const [mail] = (
        await direct((c) =>
          c.query(`SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'sent' AND sent_at > $1`, [recoveredAt]),
        )
      ).rows;
      if (!mailMs && mail.n >= MAILS_AFTER) mailMs = Date.now() - recoveredAt.getTime();
      const [hold] = (
        await direct((c) =>
          c.query(`SELECT status FROM checkouts WHERE provider_session_id = $1`, [staleSession]),
        )
      ).rows;
      if (!sweepMs && hold.status === 'expired') sweepMs = Date.now() - jobsFrom;
      if (mailMs && sweepMs) break;
      if (Date.now() - jobsFrom > 120_000)
        throw new Error(
          `${label}: pg-boss after the restart: ${mail.n} mails sent, the expired hold ${sweepMs ? 'closed' : 'NOT closed'} within 120 s\n${logTail(server)}`,
        );
      await sleep(500);
    }
    const [mails] = (
      await direct((c) =>
        c.query(
          `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE sent_at > $1)::int AS after FROM mail_outbox`,
          [recoveredAt],
        ),
      )
    ).rows;

    server.proc.kill('SIGTERM');
    await exited(server.proc);
    if (server.proc.exitCode !== 0) throw new Error(`${label}: the app did not stop cleanly (${server.proc.exitCode})`);
    const result = await direct((c) => checkDatabase(async (q, p) => (await c.query(q, p)).rows, label));
    console.log(
      `${label}: 1 app process (pid ${pid}, never restarted), 6 brands; PostgreSQL stopped ${recoveries.map((r) => `-m ${r.mode}`).join(' and ')} for 3 s each under load: ${stats.requests} requests, ${stats.ok} × 200, ${stats.unavailable.outage + stats.unavailable.recovering} × 503 "${UNAVAILABLE}" during the outages, 0 other errors, 0 hung; answering again ${recoveries.map((r) => `${r.ms} ms`).join(' and ')} after pg_ctl start returned (limit ${RECOVERY_LIMIT_MS / 1000} s); ${paidBeforeOutage} payments before the first outage, ${paid.size} acknowledged in all (${retried} pays answered 503 sent again and completed once), ${ackedSaves} acknowledged autosaves present; pg-boss after the restarts: ${MAILS_AFTER} mails sent within ${(mailMs / 1000).toFixed(1)} s of the last recovery (${mails.after} by the end; ${mails.sent} sent, ${mails.pending} still queued in all), the expired hold closed by the sweep ${(sweepMs / 1000).toFixed(1)} s after it was due; database consistent (${result.payments} payments = ${result.total} USD)`,
    );
  } finally {
    if (server && server.proc.exitCode === null && server.proc.signalCode === null) {
      server.proc.kill('SIGKILL');
      await exited(server.proc);
    }
    await cluster.remove();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
