/**
 * Every path the server answers, once (issue 58, "the client calls the contract"): the server's
 * `route()` takes its URL from this list (a path not in it does not typecheck), and the client
 * builds every API URL from it with `apiUrl()`, so a renamed route breaks the build on both sides
 * instead of a screen at run time. tests/unit/api-paths.test.ts checks that no feature of the
 * client spells an API URL by hand and that the list and the server's routes are the same.
 */
export const API_PATHS = [
  '/api/admin/approve-brand/:id',
  '/api/admin/attention',
  '/api/admin/cancellations',
  '/api/admin/cancellations/:id/answer',
  '/api/admin/disputes',
  '/api/admin/disputes/:id',
  '/api/admin/disputes/:id/answer',
  '/api/admin/disputes/:id/decide',
  '/api/admin/invite-codes',
  '/api/admin/invite-codes/:id/activate',
  '/api/admin/invite-codes/:id/deactivate',
  '/api/admin/messages/unread',
  '/api/admin/opportunities',
  '/api/admin/opportunities/:id',
  '/api/admin/organisations',
  '/api/admin/organisations/:id',
  '/api/admin/outlets/:id',
  '/api/admin/outlets/metrics/import',
  '/api/admin/payments',
  '/api/admin/payments/:id/release',
  '/api/admin/payments/:id/status',
  '/api/admin/payments/:paymentId/credit-note',
  '/api/admin/payments/:paymentId/credit-notes',
  '/api/admin/payments/:paymentId/credit-notes/:noteId',
  '/api/admin/payments/:paymentId/invoice',
  '/api/admin/payments/attention',
  '/api/admin/payments/export.csv',
  '/api/admin/payments/totals',
  '/api/admin/pending-brands',
  '/api/admin/placements',
  '/api/admin/placements/:placementId',
  '/api/admin/placements/:placementId/assignee',
  '/api/admin/placements/:placementId/conversation',
  '/api/admin/placements/:placementId/decline',
  '/api/admin/placements/:placementId/messages',
  '/api/admin/placements/:placementId/messages/:messageId/attachment',
  '/api/admin/placements/:placementId/messages/read',
  '/api/admin/placements/:placementId/publication',
  '/api/admin/placements/:placementId/publication/check',
  '/api/admin/placements/:placementId/refund',
  '/api/admin/placements/:placementId/revision-request/accept',
  '/api/admin/placements/:placementId/revision-request/decline',
  '/api/admin/placements/:placementId/timeline',
  '/api/admin/placements/:placementId/writing-started',
  '/api/admin/placements/counts',
  '/api/admin/projects',
  '/api/admin/projects/:id/mark-edits-complete',
  '/api/admin/projects/counts',
  '/api/admin/team',
  '/api/admin/test-clock',
  '/api/brand/billing',
  '/api/brand/brief-access',
  '/api/brand/brief-templates',
  '/api/brand/brief-templates/:id',
  '/api/brand/brief/:paymentId',
  '/api/brand/brief/:paymentId/submit',
  '/api/brand/disputes/:id',
  '/api/brand/disputes/:id/accept-offer',
  '/api/brand/disputes/:id/escalate',
  '/api/brand/messages/unread',
  '/api/brand/my-articles',
  '/api/brand/my-articles/counts',
  '/api/brand/orders',
  '/api/brand/orders/:id',
  '/api/brand/orders/:id/reorder',
  '/api/brand/payments',
  '/api/brand/payments/:paymentId/credit-note',
  '/api/brand/payments/:paymentId/credit-notes',
  '/api/brand/payments/:paymentId/credit-notes/:noteId',
  '/api/brand/payments/:paymentId/invoice',
  '/api/brand/placements/:placementId',
  '/api/brand/placements/:placementId/brief/copy',
  '/api/brand/placements/:placementId/cancel',
  '/api/brand/placements/:placementId/cancel-late',
  '/api/brand/placements/:placementId/conversation',
  '/api/brand/placements/:placementId/disputes',
  '/api/brand/placements/:placementId/messages',
  '/api/brand/placements/:placementId/messages/:messageId/attachment',
  '/api/brand/placements/:placementId/messages/read',
  '/api/brand/placements/:placementId/shares',
  '/api/brand/placements/:placementId/swap',
  '/api/brand/placements/:placementId/swap-options',
  '/api/brand/placements/:placementId/timeline',
  '/api/brand/projects/:paymentId/approve',
  '/api/brand/projects/:paymentId/request-edits',
  '/api/brand/projects/approve',
  '/api/brand/saved',
  '/api/brand/saved/:id',
  '/api/brand/wallet',
  '/api/briefs',
  '/api/cart',
  '/api/cart/checkout',
  '/api/cart/lines/:opportunityId',
  '/api/docs',
  '/api/files/:name',
  '/api/invitations/:token',
  '/api/invitations/:token/accept',
  '/api/login',
  '/api/logout',
  '/api/openapi.json',
  '/api/opportunities',
  '/api/org',
  '/api/org/audit',
  '/api/org/audit.csv',
  '/api/org/audit/actors',
  '/api/org/budget',
  '/api/org/clients',
  '/api/org/clients/:id',
  '/api/org/clients/:id/billing',
  '/api/org/clients/names',
  '/api/org/invitations',
  '/api/org/invitations/:id',
  '/api/org/invitations/:id/resend',
  '/api/org/members',
  '/api/org/members/:userId',
  '/api/org/members/:userId/limits',
  '/api/org/purchase-requests',
  '/api/org/purchase-requests/:id/approve',
  '/api/org/purchase-requests/:id/decline',
  '/api/org/reports',
  '/api/org/reports/:id/csv',
  '/api/org/reports/:id/pdf',
  '/api/org/reports/:id/schedule',
  '/api/org/reports/:id/shares',
  '/api/org/reports/logo',
  '/api/org/shares',
  '/api/org/shares/:id',
  '/api/org/spend',
  '/api/org/transfer-ownership',
  '/api/outlets/:id',
  '/api/password/forgot',
  '/api/password/reset',
  '/api/payments/checkout',
  '/api/payments/checkout/:sessionId',
  '/api/payments/checkout/:sessionId/cancel',
  '/api/payments/checkout/:sessionId/pay',
  '/api/register',
  '/api/terms',
  '/api/upload/avatar',
  '/api/upload/document',
  '/api/upload/logo',
  '/api/user',
  '/api/user/onboarding',
  '/api/user/profile',
  '/api/webhooks/stripe',
] as const;

/**
 * The older paths of a placement's routes (issue 58: one prefix per side, `/api/brand/placements/…`
 * and `/api/admin/placements/…`, keyed by the placement's id): each still answers, as the route of
 * its new path (lib/contract.ts `route()` registers it beside it), documented `deprecated: true` in
 * the generated OpenAPI. The spec's own routes keep their paths and are not here. The client builds
 * no URL from these.
 */
export const API_ALIASES = {
  '/api/brand/my-articles/:paymentId': '/api/brand/placements/:placementId',
  '/api/brand/brief/:paymentId/copy': '/api/brand/placements/:placementId/brief/copy',
  '/api/brand/projects/:paymentId/cancel': '/api/brand/placements/:placementId/cancel',
  '/api/brand/projects/:paymentId/conversation': '/api/brand/placements/:placementId/conversation',
  '/api/brand/projects/:paymentId/disputes': '/api/brand/placements/:placementId/disputes',
  '/api/brand/projects/:paymentId/messages': '/api/brand/placements/:placementId/messages',
  '/api/brand/projects/:paymentId/messages/:messageId/attachment': '/api/brand/placements/:placementId/messages/:messageId/attachment',
  '/api/brand/projects/:paymentId/messages/read': '/api/brand/placements/:placementId/messages/read',
  '/api/brand/projects/:paymentId/shares': '/api/brand/placements/:placementId/shares',
  '/api/brand/projects/:paymentId/swap': '/api/brand/placements/:placementId/swap',
  '/api/brand/projects/:paymentId/swap-options': '/api/brand/placements/:placementId/swap-options',
  '/api/brand/projects/:paymentId/timeline': '/api/brand/placements/:placementId/timeline',
  '/api/admin/payments/:id/decline': '/api/admin/placements/:placementId/decline',
  '/api/admin/payments/:id/publication': '/api/admin/placements/:placementId/publication',
  '/api/admin/payments/:id/publication/check': '/api/admin/placements/:placementId/publication/check',
  '/api/admin/payments/:id/refund': '/api/admin/placements/:placementId/refund',
  '/api/admin/payments/:id/revision-request/accept': '/api/admin/placements/:placementId/revision-request/accept',
  '/api/admin/payments/:id/revision-request/decline': '/api/admin/placements/:placementId/revision-request/decline',
  '/api/admin/payments/:id/writing-started': '/api/admin/placements/:placementId/writing-started',
  '/api/admin/projects/:paymentId': '/api/admin/placements/:placementId',
  '/api/admin/projects/:paymentId/conversation': '/api/admin/placements/:placementId/conversation',
  '/api/admin/projects/:paymentId/messages': '/api/admin/placements/:placementId/messages',
  '/api/admin/projects/:paymentId/messages/:messageId/attachment': '/api/admin/placements/:placementId/messages/:messageId/attachment',
  '/api/admin/projects/:paymentId/messages/read': '/api/admin/placements/:placementId/messages/read',
  '/api/admin/projects/:paymentId/timeline': '/api/admin/placements/:placementId/timeline',
} as const satisfies Record<string, ApiPath>;
export type AliasPath = keyof typeof API_ALIASES;

/** The older paths of `path` (none for most). */
export function aliasesOf(path: string): AliasPath[] {
  return (Object.keys(API_ALIASES) as AliasPath[]).filter((old) => API_ALIASES[old] === path);
}

/** The server's pages and probes that are not the JSON API (served by the same `route()`). */
export const PAGE_PATHS = ['/healthz', '/readyz', '/metrics', '/share/:token', '/unsubscribe/report/:id', '/uploads/:name'] as const;

export type ApiPath = (typeof API_PATHS)[number];
export type RoutePath = ApiPath | (typeof PAGE_PATHS)[number];

/** The names of a path's parameters: `'/a/:id/b/:noteId'` → `'id' | 'noteId'`. */
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer R}` ? N | ParamNames<`/${R}`> : P extends `${string}:${infer N}` ? N : never;

/** A query string's values; empty ones (undefined, null, '') are left out. */
export type ApiQuery = Record<string, string | number | boolean | null | undefined> | URLSearchParams;

type Args<P extends string> = [ParamNames<P>] extends [never]
  ? [params?: Record<string, never>, query?: ApiQuery]
  : [params: Record<ParamNames<P>, string>, query?: ApiQuery];

/**
 * The URL of one of the server's paths, its parameters filled in (each encoded) and the query
 * appended: `apiUrl('/api/admin/payments/:id/release', { id })`.
 */
export function apiUrl<P extends ApiPath>(path: P, ...[params, query]: Args<P>): string {
  const values = (params ?? {}) as Record<string, string>;
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`apiUrl(${path}): no value for :${name}`);
    return encodeURIComponent(value);
  });
  const search = query instanceof URLSearchParams ? query : toSearch(query);
  const text = search?.toString();
  return text ? `${filled}?${text}` : filled;
}

function toSearch(query: Record<string, string | number | boolean | null | undefined> | undefined): URLSearchParams | undefined {
  if (!query) return undefined;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  return search;
}
