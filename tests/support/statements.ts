import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { DbHandle } from '../../src/server/db/client';

/**
 * Counts the statements a database handle runs, as the database receives them: on PostgreSQL each
 * `query` of a pooled connection (node-postgres), on PGlite each `query`/`exec`, in a transaction
 * too. `SET enable_memoize = off`, which a new connection runs once before its first use
 * (db/client.ts), belongs to no request and is left out.
 */
export function statementCounter(handle: DbHandle) {
  let recording: string[] | null = null;
  const note = (text: unknown) => {
    const sql = typeof text === 'string' ? text : (text as { text?: string } | undefined)?.text;
    if (recording && sql && !/^SET enable_memoize/i.test(sql)) recording.push(sql);
  };

  if (handle.pool) {
    const wrapped = new WeakSet<pg.PoolClient>();
    handle.pool.on('acquire', (client) => {
      if (wrapped.has(client)) return;
      wrapped.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        note(args[0]);
        return query(...args);
      };
    });
  } else if (handle.pglite) {
    const db = handle.pglite as PGlite & Record<string, unknown>;
    const wrap = <T extends object>(target: T, method: 'query' | 'exec') => {
      const original = (target as Record<string, (...args: unknown[]) => unknown>)[method].bind(target);
      (target as Record<string, unknown>)[method] = (...args: unknown[]) => {
        note(args[0]);
        return original(...args);
      };
    };
    wrap(db, 'query');
    wrap(db, 'exec');
    const transaction = db.transaction.bind(db);
    db.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
      transaction((tx) => {
        wrap(tx, 'query');
        wrap(tx, 'exec');
        return callback(tx);
      })) as PGlite['transaction'];
  } else {
    throw new Error('statementCounter: a handle with neither a pool nor PGlite');
  }

  return {
    /** Runs `work` and returns the statements it sent (their texts, in order). */
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      recording = [];
      try {
        const result = await work();
        return { result, statements: recording };
      } finally {
        recording = null;
      }
    },
  };
}
