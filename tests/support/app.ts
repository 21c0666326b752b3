import type { RouteOptions } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { testChecker } from './outlets';
import { configSchema, type Config } from '../../src/server/config';
import type { Db, DbHandle } from '../../src/server/db/client';
import { diskFileStore } from '../../src/server/storage/file-store';
import { createTestDb } from './db';
import { API_ALIASES } from '../../src/shared/api-paths';

export const ORIGIN = 'http://localhost:80';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  handle: DbHandle;
  config: Config;
  uploadsDir: string;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<Config> = {}, opts: { onRoute?: (route: RouteOptions) => void } = {}): Promise<TestApp> {
  const handle = await createTestDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-test-'));
  // the API tests race money and limits with bursts of up to 200 requests at once: each must reach
  // the code under test, not the overload guard in front of it (its own test: overload.test.ts)
  const config = { ...configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, MAX_REQUESTS_IN_FLIGHT: 10_000 }), ...overrides };
  const uploadsDir = path.join(dataDir, 'uploads');
  const app = await buildApp({ db: handle.db, config, files: diskFileStore(uploadsDir), checker: testChecker(config), ...(opts.onRoute ? { onRoute: opts.onRoute } : {}) });
  await app.ready();
  return {
    app,
    db: handle.db,
    handle,
    config,
    uploadsDir,
    async close() {
      await app.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test reads an answer loosely (`res.body.message`, `res.body[0].payment.id`) and asserts its
 * shape itself: the body defaults to `any` here and only here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

export interface Res<T = Loose> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

/** A browser-like client: keeps its session cookie and sends our Origin on unsafe methods. */
export class Agent {
  cookie: string | undefined;
  constructor(private readonly app: FastifyInstance) {}

  async request<T = Loose>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res<T>> {
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      headers: {
        host: 'localhost:80',
        ...(method !== 'GET' ? { origin: ORIGIN } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && !(body instanceof Buffer) ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : body instanceof Buffer ? body : JSON.stringify(body),
    });
    const setCookie = res.cookies.find((c) => c.name === 'byline_session');
    if (setCookie) this.cookie = setCookie.value ? `byline_session=${setCookie.value}` : undefined;
    let parsed: unknown = undefined;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, body: parsed as T, headers: res.headers, text: res.body };
  }

  get<T = Loose>(url: string) {
    return this.request<T>('GET', url);
  }
  post<T = Loose>(url: string, body?: unknown) {
    return this.request<T>('POST', url, body);
  }
  patch<T = Loose>(url: string, body?: unknown) {
    return this.request<T>('PATCH', url, body);
  }
  put<T = Loose>(url: string, body?: unknown) {
    return this.request<T>('PUT', url, body);
  }
  delete<T = Loose>(url: string) {
    return this.request<T>('DELETE', url);
  }

  /** Multipart upload of one file. */
  upload<T = Loose>(url: string, field: string, file: Buffer, filename: string, contentType = 'application/octet-stream') {
    const boundary = '----bylinetest' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.request<T>('POST', url, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  }
}

const REWRITES = Object.entries(API_ALIASES).map(([old, now]) => ({ re: new RegExp(`^${old.replace(/:[A-Za-z]+/g, '([^/?]+)')}(?=$|\\?)`), now }));

/**
 * A URL of an older path of a placement's route (shared/api-paths.ts `API_ALIASES`) on its new path,
 * the same ids in it; any other URL as it is.
 */
export function newPathOf(url: string): string {
  for (const { re, now } of REWRITES) {
    const m = re.exec(url);
    if (!m) continue;
    let k = 1;
    return now.replace(/:[A-Za-z]+/g, () => m[k++]) + url.slice(m[0].length);
  }
  return url;
}

/**
 * The same agent (its session), sending every request of an older path to the new one instead;
 * `rewritten` counts how many it moved (a test of the new paths checks it is not 0).
 */
export function viaNewPaths(agent: Agent): Agent & { rewritten: number } {
  const state = { rewritten: 0 };
  return new Proxy(agent, {
    get(target, prop, receiver) {
      if (prop === 'rewritten') return state.rewritten;
      if (prop === 'request')
        return (method: string, url: string, ...rest: [unknown?, Record<string, string>?]) => {
          const now = newPathOf(url);
          if (now !== url) state.rewritten++;
          return target.request(method, now, ...rest);
        };
      return Reflect.get(target, prop, receiver) as unknown;
    },
  }) as Agent & { rewritten: number };
}
