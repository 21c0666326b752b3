import type { AuditAction } from '../../../shared/org';
import type { Db } from '../../db/client';
import type { Tx } from '../../mail/outbox';
import { eq } from 'drizzle-orm';
import { auditEntries, users } from '../../db/schema';

/** Who did a change: a member (lib/contract.ts `Member` has these fields). */
export interface Actor {
  userId: string;
  name: string | null;
  email: string;
  address: string | null;
}

/**
 * Appends an entry to the organisation's audit log, in the transaction of the change it records
 * (so a change that rolls back leaves no entry, and no change goes unrecorded). Entries are never
 * changed or deleted (migration 0025's trigger refuses both).
 */
export async function recordAudit(
  tx: Db | Tx,
  entry: { organisationId: string; actor: Actor; action: AuditAction; subject: string; details?: Record<string, unknown> },
  now: Date = new Date(),
): Promise<void> {
  await tx.insert(auditEntries).values({
    organisationId: entry.organisationId,
    actorId: entry.actor.userId,
    actorName: entry.actor.name,
    actorEmail: entry.actor.email,
    action: entry.action,
    subject: entry.subject,
    details: entry.details ?? {},
    address: entry.actor.address,
    at: now,
  });
}

/** A member as the actor of a change made without a request (the provider's webhook): no address. */
export async function actorOf(tx: Db | Tx, userId: string): Promise<Actor> {
  const [u] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return { userId, name: u?.name ?? null, email: u?.email ?? '', address: null };
}
