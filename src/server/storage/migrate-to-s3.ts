import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { MIME_BY_EXT } from './file-type';
import { isSafeStoredName, type FileStore } from './file-store';

export interface MigrationReport {
  copied: string[];
  /** already in the bucket with the same size */
  skipped: string[];
  /** not a stored file: a temporary `.name.tmp` of an interrupted write, a directory, anything else */
  ignored: string[];
}

/**
 * Copies the files of a disk store (DATA_DIR/uploads) to another store (the bucket), streamed one
 * at a time. Idempotent: a file already there with the same size is skipped, so an interrupted
 * run is simply run again. Nothing is deleted on either side.
 */
export async function copyUploads(
  dir: string,
  to: FileStore,
  log: (line: string) => void = () => {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: [], skipped: [], ignored: [] };
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  for (const name of names) {
    const file = path.join(dir, name);
    const s = await stat(file);
    if (!s.isFile() || !isSafeStoredName(name)) {
      report.ignored.push(name);
      continue;
    }
    if ((await to.stat(name))?.size === s.size) {
      report.skipped.push(name);
      continue;
    }
    const type = MIME_BY_EXT[name.split('.').pop()!] ?? 'application/octet-stream';
    await to.put(name, { size: s.size, open: () => createReadStream(file) }, type);
    report.copied.push(name);
    log(`copied ${name} (${s.size} bytes)`);
  }
  return report;
}
