import type { PgBoss } from 'pg-boss';

export interface QueueCounts {
  name: string;
  /** jobs waiting, retries waiting out their delay included */
  queued: number;
  active: number;
  /** failed jobs pg-boss still keeps (its retention): a rolling count of recent failures */
  failed: number;
}

/** How long one reading of the queues is reused: a scrape every few seconds costs one small query. */
const QUEUES_TTL_MS = 5_000;
const QUEUES_TIMEOUT_MS = 2_000;

/**
 * The background job worker of this process (jobs/boss.ts), as /readyz and /metrics see it. The app
 * is built before the jobs start (main.ts), so it is told about them later: `attach` once pg-boss
 * runs, `detach` when shutting down.
 */
export class WorkerStatus {
  private boss: PgBoss | null = null;
  private queueReading: { at: number; counts: Promise<QueueCounts[]> } | null = null;

  attach(boss: PgBoss): void {
    this.boss = boss;
    boss.once('stopped', () => {
      if (this.boss === boss) this.boss = null;
    });
  }

  detach(): void {
    this.boss = null;
  }

  /** pg-boss started, not stopped, with its workers polling (in memory: no query). */
  running(): boolean {
    return this.boss !== null && this.boss.getWipData().length > 0;
  }

  /**
   * Every queue's counts as pg-boss last counted them (its monitor refreshes them every minute),
   * read at most every 5 s; empty when no worker runs here or the database does not answer.
   */
  queues(now = Date.now()): Promise<QueueCounts[]> {
    const boss = this.boss;
    if (!boss) return Promise.resolve([]);
    if (this.queueReading && now - this.queueReading.at < QUEUES_TTL_MS) return this.queueReading.counts;
    const counts = readQueues(boss);
    this.queueReading = { at: now, counts };
    return counts;
  }
}

async function readQueues(boss: PgBoss): Promise<QueueCounts[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('queue counts timed out')), QUEUES_TIMEOUT_MS);
  });
  try {
    const queues = await Promise.race([boss.getQueues(), timeout]);
    return queues.map((q) => ({ name: q.name, queued: q.queuedCount, active: q.activeCount, failed: q.failedCount }));
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}
