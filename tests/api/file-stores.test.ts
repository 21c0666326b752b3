/**
 * The file stores (decision 020): the same suite against the disk store (DATA_DIR/uploads) and the
 * S3 store on s3rver (an S3-protocol server run inside this test on loopback, tests/support/s3.ts,
 * which refuses and records any call the store should never make). Upload, serve with the cache
 * headers, private access, 25 MB streamed through with bounded memory, a missing object, the store
 * unreachable (503, nothing half-written), and `npm run files:migrate-to-s3`'s copy.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import type { DbHandle } from '../../src/server/db/client';
import { rateLimitHits, uploads } from '../../src/server/db/schema';
import { DOCUMENT_MAX_BYTES } from '../../src/shared/constants';
import { diskFileStore, type FileStore } from '../../src/server/storage/file-store';
import { copyUploads } from '../../src/server/storage/migrate-to-s3';
import { Agent } from '../support/app';
import { createTestDb } from '../support/db';
import { kinds, signedIn } from '../support/factories';
import { testChecker } from '../support/outlets';
import { createOpportunity, makePayment } from '../support/payments';
import { startS3, type S3StandIn } from '../support/s3';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const UNAVAILABLE = { message: 'File storage is unavailable right now. Please try again in a moment.', code: 'file_store_unavailable' };

// a full collection on demand, so that memory is measured as what is held, not what awaits
// collection; and buffers freed by it at once (V8 otherwise frees them on another thread, later,
// and process.memoryUsage() still counts them: tens of MB of garbage measured as held)
v8.setFlagsFromString('--expose-gc');
v8.setFlagsFromString('--no-concurrent-array-buffer-sweeping');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/**
 * Runs `work` while sampling the memory this process holds (heap + buffers, after a full
 * collection); answers the peak growth over what it held before, and the RSS's growth.
 */
async function peakGrowth(work: () => Promise<void>): Promise<{ held: number; heap: number; buffers: number; rss: number }> {
  gc({ type: 'major' });
  const base = process.memoryUsage();
  const peak = { held: 0, heap: 0, buffers: 0, rss: 0 };
  const sample = () => {
    // a full collection: a chunk that was in flight at an earlier sample has been promoted, and
    // only a full one frees it
    gc({ type: 'major' });
    const m = process.memoryUsage();
    const heap = m.heapUsed - base.heapUsed;
    const buffers = m.arrayBuffers - base.arrayBuffers;
    if (heap + buffers > peak.held) Object.assign(peak, { held: heap + buffers, heap, buffers });
    peak.rss = Math.max(peak.rss, m.rss - base.rss);
  };
  // every 50 ms, or less often where a full collection is slow (a busy machine, a large heap): the
  // collections take at most a fifth of the time, so the transfer is not starved by its measuring
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    const started = performance.now();
    sample();
    timer = setTimeout(next, Math.max(50, 4 * (performance.now() - started)));
  };
  timer = setTimeout(next, 50);
  try {
    await work();
  } finally {
    clearTimeout(timer);
    sample();
  }
  return peak;
}

const MB = 1024 * 1024;

describe.each(['disk', 's3'] as const)('uploads on the %s store', (kind) => {
  let handle: DbHandle;
  let app: FastifyInstance;
  let dataDir: string;
  let uploadsDir: string;
  let s3: S3StandIn | undefined;
  let origin: string;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let brand: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    handle = await createTestDb();
    dataDir = mkdtempSync(path.join(os.tmpdir(), `byline-files-${kind}-`));
    uploadsDir = path.join(dataDir, 'uploads');
    let files: FileStore;
    if (kind === 's3') {
      s3 = await startS3();
      files = s3.store();
    } else {
      files = diskFileStore(uploadsDir);
    }
    const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir });
    app = await buildApp({ db: handle.db, config, files, checker: testChecker(config) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    [admin, brand, other] = await Promise.all([
      signedIn(app, handle.db, kinds.admin),
      signedIn(app, handle.db, kinds.approvedBrand),
      signedIn(app, handle.db, kinds.approvedBrand),
    ]);
  });
  afterAll(async () => {
    await app?.close();
    await handle?.close();
    await s3?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(s3?.unexpected ?? []).toEqual([]);
  });

  /** The store calls made by `work` (S3 only; the disk store makes none that can be counted). */
  async function callsOf(work: () => Promise<void>): Promise<string[]> {
    const from = s3?.calls.length ?? 0;
    await work();
    return s3 ? s3.calls.slice(from) : [];
  }
  const expectCalls = (got: string[], s3Calls: string[]) => expect(got).toEqual(kind === 's3' ? s3Calls : []);

  const rows = async () => Number((await handle.db.select({ n: count() }).from(uploads))[0].n);
  const hitsOf = async (userId: string) =>
    Number((await handle.db.select({ n: count() }).from(rateLimitHits).where(eq(rateLimitHits.subject, userId)))[0].n);

  it('an image is stored, then served through the app with its cache headers, byte for byte', async () => {
    let url = '';
    const put = await callsOf(async () => {
      const res = await brand.agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
      expect(res.status).toBe(200);
      url = res.body.url;
    });
    const name = url.split('/').pop()!;
    expectCalls(put, [`PUT public/${name}`]);

    const got = await callsOf(async () => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-length']).toBe(String(PNG.length));
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/\bsandbox\b/);
      expect(res.rawPayload.equals(PNG)).toBe(true);
    });
    expectCalls(got, [`GET public/${name}`]);

    // a stored file never changes: the bucket's copy is read once per instance (S3_CACHE_MB)
    const again = await callsOf(async () => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.rawPayload.equals(PNG)).toBe(true);
    });
    expectCalls(again, []);
  });

  it('a draft document is private: served to admins and the brand that owns it only, and refusals never reach the store', async () => {
    const up = await admin.agent.upload('/api/upload/document', 'file', PDF, 'draft.pdf', 'application/pdf');
    expect(up.status).toBe(200);
    const name = up.body.path.split('/').pop();
    const opp = await createOpportunity(handle.db, { maxSlots: 2 });
    await makePayment(handle.db, brand.user.id, opp.id, { draftDocumentFile: up.body.path });

    const refused = await callsOf(async () => {
      expect((await new Agent(app).get(up.body.path)).status).toBe(401);
      expect((await other.agent.get(up.body.path)).status).toBe(404);
      // the public route serves images only
      expect((await new Agent(app).get(`/uploads/${name}`)).status).toBe(404);
    });
    expectCalls(refused, []);

    const served = await callsOf(async () => {
      for (const agent of [admin.agent, brand.agent]) {
        const res = await app.inject({ method: 'GET', url: up.body.path, headers: { cookie: agent.cookie! } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers['content-disposition']).toBe('attachment; filename="draft.pdf"');
        expect(res.rawPayload.equals(PDF)).toBe(true);
      }
    });
    expectCalls(served, [`GET private/${name}`, `GET private/${name}`]);
  });

  it('a missing object is the same 404 as ever, for images and drafts', async () => {
    const missing = await callsOf(async () => {
      const image = await new Agent(app).get('/uploads/0123456789abcdef0123456789abcdef.png');
      expect(image.status).toBe(404);
      expect(image.body).toEqual({ message: 'File not found', code: 'file_not_found' });
      const draft = await admin.agent.get('/api/files/0123456789abcdef0123456789abcdef.pdf');
      expect(draft.status).toBe(404);
      expect(draft.body).toEqual({ message: 'File not found', code: 'file_not_found' });
    });
    expectCalls(missing, ['GET public/0123456789abcdef0123456789abcdef.png', 'GET private/0123456789abcdef0123456789abcdef.pdf']);
  });

  it('25 MB goes through to the store and back streamed, with bounded memory', async () => {
    // a PDF of exactly the limit, made and checked chunk by chunk: the test holds no copy of it either
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const header = Buffer.from('%PDF-1.7\n');
    const trailer = Buffer.from('\n%%EOF\n');
    const size = DOCUMENT_MAX_BYTES;
    const boundary = 'bylinebigfile';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    function* pdf() {
      yield header;
      let left = size - header.length - trailer.length;
      while (left > 0) {
        yield left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= chunk.length;
      }
      yield trailer;
    }
    const sent = createHash('sha256');
    for (const part of pdf()) sent.update(part);
    const expected = sent.digest('hex');

    let draftPath = '';
    const upload = await peakGrowth(async () => {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${origin}/api/upload/document`, {
          method: 'POST',
          headers: {
            origin,
            cookie: admin.agent.cookie!,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + size + tail.length),
          },
        });
        req.on('response', (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        Readable.from((function* () {
          yield head;
          yield* pdf();
          yield tail;
        })()).pipe(req);
      });
      expect(res.status).toBe(200);
      draftPath = JSON.parse(res.body).path;
    });

    const download = await peakGrowth(async () => {
      const got = createHash('sha256');
      let bytes = 0;
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(`${origin}${draftPath}`, { headers: { cookie: admin.agent.cookie! } }, (r) => {
            r.on('data', (d: Buffer) => {
              got.update(d);
              bytes += d.length;
            });
            r.on('end', () => resolve(r.statusCode ?? 0));
          })
          .on('error', reject);
      });
      expect(status).toBe(200);
      expect(bytes).toBe(size);
      expect(got.digest('hex')).toBe(expected);
    });
    const mb = (n: number) => (n / MB).toFixed(1);
    const said = (p: typeof upload) => `+${mb(p.held)} MB held (heap +${mb(p.heap)}, buffers +${mb(p.buffers)}; rss +${mb(p.rss)})`;
    console.log(`${kind}: 25 MB up ${said(upload)}, down ${said(download)}`);
    // a copy of the file held anywhere (the parser, the type check, the store, the reply) is 25 MB
    expect(upload.held).toBeLessThan(8 * MB);
    expect(download.held).toBeLessThan(8 * MB);
    const [row] = await handle.db.select().from(uploads).where(eq(uploads.name, draftPath.split('/').pop()!));
    expect(row.bytes).toBe(size);
  }, 90_000);

  it('the store unreachable: a clear 503, and nothing half-written in the database', async () => {
    const before = await callsOf(async () => {
      const res = await brand.agent.upload('/api/upload/avatar', 'avatar', PNG, 'kept.png', 'image/png');
      expect(res.status).toBe(200);
    });
    const kept = before[0]?.split('/').pop();
    const [rowsBefore, hitsBefore] = [await rows(), await hitsOf(brand.user.id)];

    // the bucket's port closed; the disk store's directory replaced by a file
    const restore = await breakStore();
    try {
      const calls = await callsOf(async () => {
        const res = await brand.agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
        expect(res.status).toBe(503);
        expect(res.body).toEqual(UNAVAILABLE);
        expect(res.headers['retry-after']).toBe('5');
        if (kind === 's3') {
          // a stored image cannot be read either: 503, not a 404 that says it is gone
          const read = await new Agent(app).get(`/uploads/${kept}`);
          expect(read.status).toBe(503);
          expect(read.body).toEqual(UNAVAILABLE);
        }
      });
      expect(calls).toEqual([]); // nothing reached the bucket
      expect(await rows()).toBe(rowsBefore);
      expect(await hitsOf(brand.user.id)).toBe(hitsBefore);
    } finally {
      await restore();
    }
    const again = await brand.agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
    expect(again.status).toBe(200);
    expect((await new Agent(app).get(again.body.url)).status).toBe(200);
  });

  async function breakStore(): Promise<() => Promise<void>> {
    if (s3) {
      await s3.down();
      return () => s3!.up();
    }
    mkdirSync(uploadsDir, { recursive: true });
    renameSync(uploadsDir, `${uploadsDir}.away`);
    writeFileSync(uploadsDir, '');
    return async () => {
      rmSync(uploadsDir);
      renameSync(`${uploadsDir}.away`, uploadsDir);
    };
  }

  it.runIf(kind === 's3')('a failed PUT is tried again with the file read afresh', async () => {
    s3!.failNext(1);
    let url = '';
    const calls = await callsOf(async () => {
      const res = await brand.agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
      expect(res.status).toBe(200);
      url = res.body.url;
    });
    const name = url.split('/').pop();
    expect(calls).toEqual([`PUT public/${name}`, `PUT public/${name}`]);
    expect((await app.inject({ method: 'GET', url })).rawPayload.equals(PNG)).toBe(true);
  });

  it.runIf(kind === 's3')('with S3_PUBLIC_URL the images are served by the bucket (a redirect), drafts still only through the app', async () => {
    const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const direct = await buildApp({ db: handle.db, config, files: s3!.store({ publicUrl: 'https://cdn.example.com/files/' }) });
    try {
      const logo = await brand.agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
      const name = logo.body.url.split('/').pop();
      const draft = await admin.agent.upload('/api/upload/document', 'file', PDF, 'draft.pdf', 'application/pdf');
      const calls = await callsOf(async () => {
        const res = await direct.inject({ method: 'GET', url: logo.body.url });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe(`https://cdn.example.com/files/public/${name}`);
        const doc = await direct.inject({ method: 'GET', url: draft.body.path, headers: { cookie: admin.agent.cookie! } });
        expect(doc.statusCode).toBe(200);
        expect(doc.rawPayload.equals(PDF)).toBe(true);
        expect((await direct.inject({ method: 'GET', url: `/uploads/${draft.body.path.split('/').pop()}` })).statusCode).toBe(404);
      });
      expect(calls).toEqual([`GET private/${draft.body.path.split('/').pop()}`]);
    } finally {
      await direct.close();
    }
  });
});

describe('npm run files:migrate-to-s3', () => {
  let s3: S3StandIn;
  let dir: string;
  beforeAll(async () => {
    s3 = await startS3('byline-migrate');
    dir = mkdtempSync(path.join(os.tmpdir(), 'byline-migrate-'));
  });
  afterAll(async () => {
    await s3?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => expect(s3.unexpected).toEqual([]));

  it('copies DATA_DIR/uploads to the bucket, skips what is already there, and copies a changed file again', async () => {
    const image = '0123456789abcdef0123456789abcdef.png';
    const draft = 'fedcba9876543210fedcba9876543210.pdf';
    writeFileSync(path.join(dir, image), PNG);
    writeFileSync(path.join(dir, draft), PDF);
    writeFileSync(path.join(dir, `.${image}.tmp`), 'an interrupted write');
    const store = s3.store();

    const first = await copyUploads(dir, store);
    expect(first).toEqual({ copied: [image, draft].sort(), skipped: [], ignored: [`.${image}.tmp`] });
    const got = await store.get(image);
    expect(got?.size).toBe(PNG.length);
    got?.stream.destroy();

    const from = s3.calls.length;
    const second = await copyUploads(dir, store);
    expect(second).toEqual({ copied: [], skipped: [image, draft].sort(), ignored: [`.${image}.tmp`] });
    expect(s3.calls.slice(from)).toEqual([`HEAD public/${image}`, `HEAD private/${draft}`]);

    writeFileSync(path.join(dir, draft), Buffer.concat([PDF, Buffer.from('% more\n')]));
    const third = await copyUploads(dir, store);
    expect(third.copied).toEqual([draft]);
    expect((await store.stat(draft))?.size).toBe(PDF.length + 7);
  });
});
