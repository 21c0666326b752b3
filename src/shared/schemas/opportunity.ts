import { z } from 'zod';
import { MAX_EXAMPLES } from '../constants';
import { fromCents, toCents } from '../money';
import {
  OPPORTUNITY_STATUSES,
  OPPORTUNITY_TYPES,
  deadlineDay,
  type Opportunity,
  type OpportunityType,
} from '../opportunity';
import { isHttpUrl, withHttps } from './profile';
import { adminSearchQuery } from './admin-search';
import { baseVersionSchema } from './version';
import { LINK_TYPES, TOPICS, isLanguage, type LinkType, type Topic } from '../catalogue';
import { isCountry } from '../countries';

/**
 * Creating and editing an opportunity (spec §5 "Opportunity", "Examples").
 *
 * Two schemas with the same rules and messages:
 * - `opportunityRequestSchema`: what POST/PATCH /api/admin/opportunities accept (price and numbers
 *   as string or number, empty = none, unknown keys such as status and filledSlots dropped);
 * - `opportunityFormSchema`: the admin form (react-hook-form + zodResolver), whose inputs are all
 *   strings. Both produce the same output, `OpportunityRequest`, which is the JSON to send.
 */

const MAX_SLOTS_LIMIT = 10_000;
const TEXT_MAX = 200;
export const DESCRIPTION_MAX = 5000;
const URL_MAX = 2048;

type Result<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = (message: string): Result<never> => ({ ok: false, message });

/** Turns a normaliser into a zod transform that reports its message on the field. */
const check =
  <I, O>(fn: (raw: I) => Result<O>) =>
  (raw: I, ctx: z.RefinementCtx) => {
    const r = fn(raw);
    if (r.ok) return r.value;
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  };

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
/** Numbers arrive from JSON; strings from inputs. A plain decimal only: no "0x10", "1e3" or "1,000". */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const asNumber = (v: string | number): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const t = v.trim();
  return DECIMAL_TEXT.test(t) ? Number(t) : null;
};

// ---- one normaliser per rule, shared by both schemas ----

/** The database keeps prices as numeric(12,2). */
const MAX_PRICE_CENTS = 999_999_999_999;

function normalizePrice(raw: string | number | null | undefined): Result<string> {
  if (isBlank(raw)) return fail('Price is required');
  let cents: number;
  try {
    cents = toCents(typeof raw === 'string' ? raw.trim() : raw!);
  } catch {
    return fail('Price must be a valid amount');
  }
  if (cents <= 0) return fail('Price must be greater than 0');
  if (cents > MAX_PRICE_CENTS) return fail('Price must be at most $9,999,999,999.99');
  return ok(fromCents(cents));
}

function normalizeMaxSlots(raw: string | number | null | undefined): Result<number> {
  if (isBlank(raw)) return fail('Max slots is required');
  const n = asNumber(raw!);
  if (n === null) return fail('Max slots must be a valid number');
  if (!Number.isInteger(n)) return fail('Max slots must be a whole number');
  if (n < 1) return fail('Max slots must be at least 1');
  if (n > MAX_SLOTS_LIMIT) return fail(`Max slots must be at most ${MAX_SLOTS_LIMIT}`);
  return ok(n);
}

function normalizeDomainAuthority(raw: string | number | null | undefined): Result<number | null> {
  if (isBlank(raw)) return ok(null);
  const n = asNumber(raw!);
  if (n === null) return fail('Domain Authority must be a valid number');
  // a fraction such as 45.5 is no DA score: DA is a whole number from 1 to 100
  if (!Number.isInteger(n)) return fail('Domain Authority must be between 1 and 100');
  if (n < 1) return fail('Domain Authority must be at least 1');
  if (n > 100) return fail('Domain Authority must be at most 100');
  return ok(n);
}

function normalizeOutletUrl(raw: string | null | undefined): Result<string | null> {
  if (isBlank(raw)) return ok(null);
  const v = withHttps(raw!.trim());
  if (v.length > URL_MAX || !isHttpUrl(v)) return fail('Outlet URL must be a valid URL');
  return ok(v);
}

/** Something typed as a URL ("https:", "javascript:", "//host") rather than a path. */
const looksLikeUrl = (v: string) => /^[a-z][a-z0-9+.-]*:/i.test(v) || v.startsWith('//') || v.startsWith('\\');
/** A site path such as "/uploads/ab12.png": no "//", "\", "..", spaces or query strings. */
const SITE_PATH = /^\/(?!\/)[A-Za-z0-9._~\-/]*$/;
const UPLOAD_PATH = /^\/uploads\/[A-Za-z0-9_-]+\.(png|jpg|jpeg|gif|webp)$/;

function normalizeLogoUrl(raw: string | null | undefined): Result<string | null> {
  if (isBlank(raw)) return ok(null);
  const v = raw!.trim();
  if (v.length > URL_MAX) return fail('Logo must be a valid URL');
  if (looksLikeUrl(v)) return isHttpUrl(v) ? ok(v) : fail('Logo must be a valid URL');
  if (SITE_PATH.test(v) && !v.split('/').includes('..')) return ok(v);
  return fail('Logo must be a URL or path starting with /');
}

function normalizeExampleUrl(raw: string): Result<string> {
  const v = withHttps(raw.trim());
  if (v.length > URL_MAX) return fail('Must be a valid URL');
  if (looksLikeUrl(v)) return isHttpUrl(v) ? ok(v) : fail('Must be a valid URL');
  if (UPLOAD_PATH.test(v)) return ok(v);
  return fail('Must be a URL or upload path');
}

function normalizeTatDays(raw: string | number | null | undefined): Result<number | null> {
  if (isBlank(raw)) return ok(null);
  const n = asNumber(raw!);
  if (n === null || !Number.isInteger(n)) return fail('Turnaround days must be a whole number');
  if (n < 1) return fail('Turnaround days must be at least 1');
  if (n > 365) return fail('Turnaround days must be at most 365');
  return ok(n);
}

function normalizeCountry(raw: string | null | undefined): Result<string | null> {
  if (isBlank(raw)) return ok(null);
  const v = raw!.trim().toUpperCase();
  return isCountry(v) ? ok(v) : fail('Country must be an ISO 3166-1 alpha-2 code, e.g. DE');
}

function normalizeLanguage(raw: string | null | undefined): Result<string | null> {
  if (isBlank(raw)) return ok(null);
  const v = raw!.trim().toLowerCase();
  return isLanguage(v) ? ok(v) : fail('Language must be an ISO 639-1 code, e.g. de');
}

const DATE_OR_DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A deadline is a calendar day ("YYYY-MM-DD"; of an ISO datetime only its written date counts),
 * claimable through the end of that day in UTC. `minDay` is the earliest day accepted.
 */
function normalizeDeadline(
  raw: string | null | undefined,
  minDay: string,
  keepDay?: string | null,
): Result<string | null> {
  if (isBlank(raw)) return ok(null);
  const m = DATE_OR_DATETIME.exec(raw!.trim());
  if (!m) return fail('Deadline must be a valid date');
  const [, y, mo, d] = m;
  const day = `${y}-${mo}-${d}`;
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day || Number(y) < 2000) {
    return fail('Deadline must be a valid date');
  }
  const refusal = pastDeadlineRefusal(day, minDay, keepDay);
  return refusal ? fail(refusal) : ok(day);
}

/**
 * Why a deadline day cannot be saved (null: it can): a day before `minDay`, unless it is `keepDay`,
 * the deadline the opportunity being edited already has (it may keep it, even once it has passed).
 */
export function pastDeadlineRefusal(day: string, minDay: string, keepDay?: string | null): string | null {
  return day < minDay && day !== keepDay ? 'Deadline cannot be in the past' : null;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/** The server accepts UTC yesterday too: an admin west of UTC may still be on that day. */
export const serverMinDeadlineDay = (now = new Date()) => isoDay(new Date(now.getTime() - 86_400_000));
/** The form refuses days before the browser's local today. */
export function localToday(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

// ---- fields used by both schemas ----

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const types = z
  .array(z.enum(OPPORTUNITY_TYPES, { error: 'Unknown opportunity type' }), { error: 'At least one type is required' })
  .min(1, 'At least one type is required')
  // the same type twice means nothing more
  .transform((list) => [...new Set(list)]);

const tat = z
  .string({ error: 'Turnaround must be text' })
  .trim()
  .max(100, 'Turnaround must be at most 100 characters')
  .nullish()
  .transform((v) => (v ? v : null));

const examples = z
  .array(z.string({ error: 'Must be a valid URL' }), { error: 'Examples must be a list of URLs' })
  // blank entries are nothing typed yet
  .transform((list) => list.filter((v) => v.trim() !== ''))
  .pipe(
    z
      .array(z.string().transform(check(normalizeExampleUrl)))
      .max(MAX_EXAMPLES, `Maximum ${MAX_EXAMPLES} examples allowed`),
  );

const linkType = z
  .union([z.enum(LINK_TYPES), z.literal('')], { error: `Link type must be one of ${LINK_TYPES.join(', ')}` })
  .nullish()
  .transform((v) => (v ? v : null));

const topics = z
  .array(z.enum(TOPICS, { error: 'Unknown topic' }), { error: 'Topics must be a list' })
  .max(TOPICS.length, 'Too many topics')
  .transform((list) => [...new Set(list)]);

const stringOrNumber = (invalid: string) => z.union([z.string(), z.number()], { error: invalid }).nullish();
const optionalString = (invalid: string) => z.string({ error: invalid }).nullish();

// ---- the server's request schema ----

/**
 * POST and PATCH /api/admin/opportunities. Keys not listed (status, filledSlots, id...) are dropped.
 * `anyDay`: a deadline of any valid day, past ones too (`opportunityEditSchema`).
 */
const opportunityRequestSchemaFor = (anyDay = false) =>
  z.object({
    outletName: requiredText('Outlet name', TEXT_MAX),
    outletUrl: optionalString('Outlet URL must be a valid URL').transform(check(normalizeOutletUrl)),
    title: requiredText('Title', TEXT_MAX),
    description: requiredText('Description', DESCRIPTION_MAX),
    type: types,
    tat,
    priceUsd: stringOrNumber('Price must be a valid amount').transform(check(normalizePrice)),
    maxSlots: stringOrNumber('Max slots must be a valid number').transform(check(normalizeMaxSlots)),
    domainAuthority: stringOrNumber('Domain Authority must be a valid number').transform(
      check(normalizeDomainAuthority),
    ),
    deadlineDate: optionalString('Deadline must be a valid date').transform((raw, ctx) =>
      check((v: typeof raw) => normalizeDeadline(v, anyDay ? '' : serverMinDeadlineDay()))(raw, ctx),
    ),
    logoUrl: optionalString('Logo must be a valid URL').transform(check(normalizeLogoUrl)),
    exampleUrls: examples.nullish().transform((v) => v ?? []),
    tatDays: stringOrNumber('Turnaround days must be a whole number').transform(check(normalizeTatDays)),
    linkType,
    topics: topics.nullish().transform((v) => v ?? []),
    country: optionalString('Country must be an ISO 3166-1 alpha-2 code, e.g. DE').transform(check(normalizeCountry)),
    language: optionalString('Language must be an ISO 639-1 code, e.g. de').transform(check(normalizeLanguage)),
  });
export const opportunityRequestSchema = opportunityRequestSchemaFor();

/**
 * PATCH /api/admin/opportunities/{id} as its contract reads it: the same body with the version it
 * was based on (decision 019), and a deadline of any valid day, since an edit may keep one that has
 * passed; the server then refuses another past day (`pastDeadlineRefusal`).
 */
export const opportunityEditSchema = opportunityRequestSchemaFor(true).extend(baseVersionSchema.shape);

/** The normalised opportunity fields: the JSON body the client sends and the server stores. */
export interface OpportunityRequest {
  outletName: string;
  outletUrl: string | null;
  title: string;
  description: string;
  type: OpportunityType[];
  tat: string | null;
  /** "1234.50" */
  priceUsd: string;
  maxSlots: number;
  domainAuthority: number | null;
  /** "YYYY-MM-DD" or null */
  deadlineDate: string | null;
  logoUrl: string | null;
  exampleUrls: string[];
  tatDays: number | null;
  linkType: LinkType | null;
  topics: Topic[];
  /** ISO 3166-1 alpha-2, upper case */
  country: string | null;
  /** ISO 639-1, lower case */
  language: string | null;
}

// ---- the admin form's schema ----

/**
 * The create/edit form: every input a string (exampleUrls a list of strings, type a list of
 * types). Use with `useForm<OpportunityFormValues, unknown, OpportunityRequest>({ resolver:
 * zodResolver(opportunityFormSchema) })`; `handleSubmit` then receives the JSON to send.
 */
export const opportunityFormSchemaFor = (keepDay?: string | null) =>
  z.object({
    outletName: requiredText('Outlet name', TEXT_MAX),
    outletUrl: z.string().transform(check(normalizeOutletUrl)),
    title: requiredText('Title', TEXT_MAX),
    description: requiredText('Description', DESCRIPTION_MAX),
    type: types,
    tat: z
      .string()
      .trim()
      .max(100, 'Turnaround must be at most 100 characters')
      .transform((v) => (v ? v : null)),
    priceUsd: z.string().transform(check(normalizePrice)),
    maxSlots: z.string().transform(check(normalizeMaxSlots)),
    domainAuthority: z.string().transform(check(normalizeDomainAuthority)),
    deadlineDate: z
      .string()
      .transform((raw, ctx) => check((v: string) => normalizeDeadline(v, localToday(), keepDay))(raw, ctx)),
    logoUrl: z.string().transform(check(normalizeLogoUrl)),
    exampleUrls: examples,
    tatDays: z.string().transform(check(normalizeTatDays)),
    linkType,
    topics,
    country: z.string().transform(check(normalizeCountry)),
    language: z.string().transform(check(normalizeLanguage)),
  });
export const opportunityFormSchema = opportunityFormSchemaFor();

export type OpportunityFormValues = z.input<typeof opportunityFormSchema>;

// both schemas must produce exactly the documented request shape
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _requestOutput: Same<z.output<typeof opportunityRequestSchema>, OpportunityRequest> = true;
const _formOutput: Same<z.output<typeof opportunityFormSchema>, OpportunityRequest> = true;

/** Empty values for the create form. */
export const emptyOpportunityForm: OpportunityFormValues = {
  outletName: '',
  outletUrl: '',
  title: '',
  description: '',
  type: [],
  tat: '',
  priceUsd: '',
  maxSlots: '1',
  domainAuthority: '',
  deadlineDate: '',
  logoUrl: '',
  exampleUrls: [],
  tatDays: '',
  linkType: '',
  topics: [],
  country: '',
  language: '',
};

/** The edit form's starting values from an opportunity the API returned. */
export function opportunityToFormValues(o: Opportunity): OpportunityFormValues {
  return {
    outletName: o.outletName,
    outletUrl: o.outletUrl ?? '',
    title: o.title,
    description: o.description,
    type: [...o.type],
    tat: o.tat ?? '',
    priceUsd: o.priceUsd,
    maxSlots: String(o.maxSlots),
    domainAuthority: o.domainAuthority === null ? '' : String(o.domainAuthority),
    deadlineDate: o.deadlineDate ? deadlineDay(o.deadlineDate) : '',
    logoUrl: o.logoUrl ?? '',
    exampleUrls: [...o.exampleUrls],
    tatDays: o.tatDays === null ? '' : String(o.tatDays),
    linkType: o.linkType ?? '',
    topics: [...o.topics],
    country: o.country ?? '',
    language: o.language ?? '',
  };
}

/** GET /api/admin/opportunities filters (the dashboard's; besides ?limit=&cursor=). */
export const adminOpportunitiesQuerySchema = z.object({
  status: z
    .enum(OPPORTUNITY_STATUSES, { error: `status must be one of ${OPPORTUNITY_STATUSES.join(', ')}` })
    .optional(),
  type: z.enum(OPPORTUNITY_TYPES, { error: `type must be one of ${OPPORTUNITY_TYPES.join(', ')}` }).optional(),
  /** "Show Full Only" */
  full: z.enum(['true', 'false'], { error: 'full must be true or false' }).optional(),
  /** words in the outlet name, title or description, or the outlet's name with a typo (as the brands' search) */
  q: adminSearchQuery,
});
export type AdminOpportunitiesQuery = z.output<typeof adminOpportunitiesQuerySchema>;
