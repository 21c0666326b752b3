import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { s3FileStore, type S3StoreOptions } from '../../src/server/storage/s3-store';

/** The store's whole vocabulary: one object, by its key under public/ or private/, no sub-resources. */
const OBJECT_CALL = /^\/([a-z0-9.-]+)\/((?:public|private)\/[A-Za-z0-9_-]+\.[a-z0-9]+)$/;
const OPERATIONS: Record<string, string | undefined> = { PUT: 'PutObject', GET: 'GetObject', HEAD: undefined, DELETE: 'DeleteObject' };

/**
 * S3 on loopback for the tests: s3rver (an S3-protocol server) inside the test process, behind a
 * recorder. Every call is in `calls` ("PUT public/<name>.png"); a call the file store never makes
 * (another bucket, a listing, multipart, ACLs…) is refused with 501 and kept in `unexpected`,
 * which the tests assert stays empty. `down()` closes the port (the bucket unreachable), `up()`
 * opens it again; `failNext(n)` answers the next n calls 500 InternalError.
 */
export async function startS3(bucket = 'byline-test') {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-s3-'));
  const s3rver = new S3rver({ silent: true, directory: dir, vhostBuckets: false, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const calls: string[] = [];
  const unexpected: string[] = [];
  let failures = 0;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const m = OBJECT_CALL.exec(url.pathname);
    const method = req.method ?? '';
    const query = [...url.searchParams.keys()];
    const call = `${method} ${m ? m[2] : url.pathname + url.search}`;
    const known =
      m && m[1] === bucket && method in OPERATIONS &&
      (query.length === 0 || (query.length === 1 && url.searchParams.get('x-id') === OPERATIONS[method]));
    if (!known) {
      unexpected.push(call);
      req.resume();
      res.writeHead(501).end();
      return;
    }
    calls.push(call);
    if (failures > 0) {
      failures--;
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>stand-in failure</Message></Error>');
      return;
    }
    handle(req, res);
  });
  const listen = (port = 0) => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  await listen();
  const port = (server.address() as AddressInfo).port;
  const options: S3StoreOptions = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    cacheBytes: 32 * 1024 * 1024, // S3_CACHE_MB's default
  };
  const close = () =>
    new Promise<void>((r) => {
      if (!server.listening) return r();
      server.close(() => r());
      server.closeAllConnections();
    });

  return {
    port,
    bucket,
    /** the S3 settings of this bucket: for s3FileStore, or as S3_* environment variables */
    options,
    env: {
      FILE_STORE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: options.endpoint!,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    calls,
    unexpected,
    /** a file store on this bucket */
    store: (more: Partial<S3StoreOptions> = {}) => s3FileStore({ ...options, ...more }),
    failNext(n: number) {
      failures = n;
    },
    down: close,
    up: () => listen(port),
    async close() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type S3StandIn = Awaited<ReturnType<typeof startS3>>;
