import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileSource } from './file-store';

/** The first bytes of an upload kept in memory: more than any signature or SVG prolog we read. */
const HEAD_BYTES = 64 * 1024;

/**
 * An upload written to a temporary file as it arrives (the OS temp directory, TMPDIR), so that a
 * 25 MB draft is never held whole in memory: its type is read from the file, then it is streamed
 * to the file store. Whoever spools it disposes of it.
 */
export interface SpooledFile extends FileSource {
  path: string;
  /** The first bytes (up to 64 KB). */
  head: Buffer;
  dispose(): Promise<void>;
}

const SPOOL_PREFIX = 'byline-upload-';

export async function spool(stream: Readable): Promise<SpooledFile> {
  const file = path.join(os.tmpdir(), `${SPOOL_PREFIX}${randomBytes(12).toString('hex')}`);
  const head: Buffer[] = [];
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (size < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - size));
      size += chunk.length;
      done(null, chunk);
    },
  });
  const dispose = () => rm(file, { force: true });
  try {
    await pipeline(stream, count, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await dispose();
    throw err;
  }
  return { path: file, size, head: Buffer.concat(head), open: () => createReadStream(file), dispose };
}

/**
 * A spooled upload untouched for this long was left by a process killed mid-request (its request
 * would have disposed of it): a 25 MB upload at 10 KB/s writes for 45 minutes, touching the file.
 */
const LEFTOVER_AFTER_MS = 6 * 60 * 60_000;

/**
 * Deletes the spooled uploads in `dir` (the OS temp directory) left by killed processes, on this
 * machine: every server runs it when it starts and each hour (main.ts). Returns the names deleted.
 */
export async function sweepLeftoverSpools(dir: string = os.tmpdir(), now: number = Date.now()): Promise<string[]> {
  const deleted: string[] = [];
  for (const name of await readdir(dir)) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    const file = path.join(dir, name);
    try {
      if (now - (await stat(file)).mtimeMs < LEFTOVER_AFTER_MS) continue;
      await rm(file, { force: true });
      deleted.push(name);
    } catch {
      // gone meanwhile (its request disposed of it, or another process swept it)
    }
  }
  return deleted;
}

/** Whether `needle` occurs anywhere in the file, read in chunks (never the whole file at once). */
export async function fileIncludes(file: SpooledFile, needle: Buffer): Promise<boolean> {
  let tail: Buffer = Buffer.alloc(0);
  for await (const chunk of file.open() as AsyncIterable<Buffer>) {
    const window = tail.length ? Buffer.concat([tail, chunk]) : chunk;
    if (window.includes(needle)) return true;
    tail = window.subarray(Math.max(0, window.length - needle.length + 1));
  }
  return false;
}

/** Reads byte ranges of a file through one 64 KB window (the zip directory of a .docx, entry by entry). */
export class FileBytes {
  private window = Buffer.alloc(0);
  private start = 0;
  private constructor(
    private readonly handle: Awaited<ReturnType<typeof open>>,
    readonly size: number,
  ) {}

  static async open(file: SpooledFile): Promise<FileBytes> {
    return new FileBytes(await open(file.path, 'r'), file.size);
  }

  /** `length` bytes from `position`; fewer only past the end of the file. */
  async at(position: number, length: number): Promise<Buffer> {
    const from = position - this.start;
    if (from >= 0 && from + length <= this.window.length) return this.window.subarray(from, from + length);
    const buf = Buffer.alloc(Math.max(0, Math.min(Math.max(length, HEAD_BYTES), this.size - position)));
    const { bytesRead } = await this.handle.read(buf, 0, buf.length, position);
    this.window = buf.subarray(0, bytesRead);
    this.start = position;
    return this.window.subarray(0, length);
  }

  close() {
    return this.handle.close();
  }
}
