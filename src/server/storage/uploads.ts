import { randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { opportunities, placementMessages, placements, uploads, users, reports } from '../db/schema';
import { claimLimits, releaseClaims } from '../lib/rate-limit';
import type { Limits } from '../limits';
import type { FileSource, FileStore } from './file-store';

export type UploadKind = (typeof uploads.$inferInsert)['kind'];

export const generatedName = (ext: string) => `${randomBytes(16).toString('hex')}.${ext}`;

/** A file nothing refers to is deleted this long after its upload. */
const UNREFERENCED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * Stores an upload under a generated name: counted against the uploader's daily limits (brands;
 * admins are the editorial team and upload drafts of up to 25 MB all day), recorded in `uploads`
 * first (so a file can never exist without its row, whatever crashes), then streamed to the store.
 * When the store cannot take it (503) the row and the counted limits are taken back: nothing is
 * left half-written.
 */
export async function storeUpload(
  db: Db,
  files: FileStore,
  limits: Limits,
  uploader: { id: string; role: string },
  file: { source: FileSource; ext: string; mime: string; kind: UploadKind; organisationId?: string },
): Promise<string> {
  let claimed: number[] = [];
  if (uploader.role !== 'admin') {
    claimed = await claimLimits(db, [
      { limit: limits.uploads, subject: uploader.id },
      { limit: limits.uploadBytes, subject: uploader.id, weight: file.source.size },
    ]);
  }
  const name = generatedName(file.ext);
  await db.insert(uploads).values({ name, ownerId: uploader.id, kind: file.kind, bytes: file.source.size, organisationId: file.organisationId ?? null });
  try {
    await files.put(name, file.source, file.mime);
  } catch (err) {
    await db.transaction(async (tx) => {
      await tx.delete(uploads).where(eq(uploads.name, name));
      await releaseClaims(tx, claimed);
    });
    throw err;
  }
  return name;
}

/**
 * Every place a stored file can be referred to from. A new reference (a message attachment, say)
 * belongs here, or the sweep deletes its files.
 */
const referenced = (name: ReturnType<typeof sql>) => sql`(
  EXISTS (SELECT 1 FROM ${users} WHERE ${users.avatarUrl} = '/uploads/' || ${name})
  OR EXISTS (SELECT 1 FROM ${opportunities} WHERE ${opportunities.logoUrl} = '/uploads/' || ${name}
             OR ('/uploads/' || ${name}) = ANY(${opportunities.exampleUrls}))
  OR EXISTS (SELECT 1 FROM ${placements} WHERE ${placements.draftDocumentFile} = '/api/files/' || ${name})
  OR EXISTS (SELECT 1 FROM ${placementMessages} WHERE ${placementMessages.attachmentFile} = ${name})
  OR EXISTS (SELECT 1 FROM ${reports} WHERE ${reports.whiteLabel}->>'logoFile' = '/uploads/' || ${name})
)`;

/**
 * Deletes files uploaded more than a day ago that nothing refers to (an avatar replaced, a logo
 * uploaded for a form that was never saved): their rows in one statement, then the files.
 * Returns the names deleted.
 */
export async function sweepUnreferencedUploads(db: Db, files: FileStore, now: Date = new Date(), limit = 500): Promise<string[]> {
  const cutoff = new Date(now.getTime() - UNREFERENCED_UPLOAD_MS);
  const rows = await db
    .delete(uploads)
    .where(
      and(
        lt(uploads.createdAt, cutoff),
        sql`${uploads.name} IN (SELECT u.name FROM ${uploads} u WHERE u.created_at < ${cutoff.toISOString()}::timestamptz
              AND NOT ${referenced(sql`u.name`)} LIMIT ${limit})`,
      ),
    )
    .returning({ name: uploads.name });
  for (const { name } of rows) await files.delete(name);
  return rows.map((r) => r.name);
}
