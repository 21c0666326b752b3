import type { FastifyInstance } from 'fastify';
import { hidesAmounts } from '../../shared/org';

/**
 * A client reviewer never sees an amount (decision 035; issue 57: "an answer, file, page or e-mail
 * reaching a member who may not see amounts contains none, whoever made it"). Decided when the
 * answer is sent, by who asks: one hook drops every money field from every JSON answer to such a
 * member, whichever route made it (its list, its item, a POST's answer, a timeline's details).
 *
 * The money fields of the API's answers by name. tests/api/client-amounts.test.ts fails when an
 * answer a client reviewer can get declares a money field (a `decimal`) not named here.
 */
export const AMOUNT_KEYS: ReadonlySet<string> = new Set([
  'amount',
  'amountUsd',
  'askedAmount',
  'approvalThresholdUsd',
  'balance',
  'budgetLeftUsd',
  'currentPriceUsd',
  'expectedAmount',
  'heldUsd',
  'monthlyCapUsd',
  'openUsd',
  'paidTotalUsd',
  'paidUsd',
  'payUsd',
  'priceUsd',
  'refundUsd',
  'refundedAmount',
  'refundedUsd',
  'releasedUsd',
  'spentUsd',
  'totalUsd',
]);

/**
 * The value without its money fields, at any depth. A field is money by its name and its value (a
 * decimal string, or null for "none yet"): a count that shares a name is kept.
 */
function withoutAmounts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAmounts);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (AMOUNT_KEYS.has(key) && (v === null || typeof v === 'string')) continue;
    out[key] = withoutAmounts(v);
  }
  return out;
}

/** Whether the signed-in user of a request is a member who may not see amounts (a client reviewer). */
const readerHidesAmounts = (user: { orgRole: Parameters<typeof hidesAmounts>[0]; clientIds: string[] | null } | null | undefined) =>
  Boolean(user && hidesAmounts(user.orgRole, user.clientIds));

/**
 * The hook: every JSON answer to a member who may not see amounts, without them. Registered before
 * the compression of JSON answers (hooks run in the order they are added).
 */
export function redactAmounts(app: FastifyInstance) {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!readerHidesAmounts(req.user) || typeof payload !== 'string') return done(null, payload);
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return done(null, payload);
    }
    reply.removeHeader('content-length');
    done(null, JSON.stringify(withoutAmounts(parsed)));
  });
}
