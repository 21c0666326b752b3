import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Helpers the bench scripts share (scripts/bench.ts, scripts/bench-publication.ts). */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The same server, another database. */
export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** VmRSS / VmHWM of a process, in bytes (Linux). */
export function procMemory(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** The next IPC message of this type from a child process. */
export function onMessage<T>(child: ChildProcess, type: string, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', handler);
      reject(new Error(`no ${type} from child ${child.pid}`));
    }, timeoutMs);
    const handler = (m: unknown) => {
      if ((m as { type?: string })?.type === type) {
        clearTimeout(timer);
        child.off('message', handler);
        resolve(m as T);
      }
    };
    child.on('message', handler);
  });
}

/** Signs in through the API and answers the session cookie. */
export async function login(origin: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('byline_session='));
  if (!cookie) throw new Error(`login ${email}: no session cookie`);
  return cookie;
}
