import { z } from 'zod';
import { countryName, isCountry } from './countries';

/**
 * Billing details and the tax documents (invoices, credit notes) made from them. Shared by the
 * billing form, the API and the PDF, so the country list and the VAT rules are written once.
 */


/**
 * EU VAT identification numbers by member state (the prefix is part of the number; Greece uses EL,
 * Northern Ireland XI). The shapes are the European Commission's VIES formats: they catch a typo,
 * they do not prove the number is registered.
 */
const EU_VAT_FORMATS: Record<string, { prefix: string; body: RegExp }> = {
  AT: { prefix: 'AT', body: /^U\d{8}$/ },
  BE: { prefix: 'BE', body: /^[01]\d{9}$/ },
  BG: { prefix: 'BG', body: /^\d{9,10}$/ },
  CY: { prefix: 'CY', body: /^\d{8}[A-Z]$/ },
  CZ: { prefix: 'CZ', body: /^\d{8,10}$/ },
  DE: { prefix: 'DE', body: /^\d{9}$/ },
  DK: { prefix: 'DK', body: /^\d{8}$/ },
  EE: { prefix: 'EE', body: /^\d{9}$/ },
  GR: { prefix: 'EL', body: /^\d{9}$/ },
  ES: { prefix: 'ES', body: /^[A-Z0-9]\d{7}[A-Z0-9]$/ },
  FI: { prefix: 'FI', body: /^\d{8}$/ },
  FR: { prefix: 'FR', body: /^[A-HJ-NP-Z0-9]{2}\d{9}$/ },
  HR: { prefix: 'HR', body: /^\d{11}$/ },
  HU: { prefix: 'HU', body: /^\d{8}$/ },
  IE: { prefix: 'IE', body: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/ },
  IT: { prefix: 'IT', body: /^\d{11}$/ },
  LT: { prefix: 'LT', body: /^(\d{9}|\d{12})$/ },
  LU: { prefix: 'LU', body: /^\d{8}$/ },
  LV: { prefix: 'LV', body: /^\d{11}$/ },
  MT: { prefix: 'MT', body: /^\d{8}$/ },
  NL: { prefix: 'NL', body: /^\d{9}B\d{2}$/ },
  PL: { prefix: 'PL', body: /^\d{10}$/ },
  PT: { prefix: 'PT', body: /^\d{9}$/ },
  RO: { prefix: 'RO', body: /^[1-9]\d{1,9}$/ },
  SE: { prefix: 'SE', body: /^\d{10}01$/ },
  SI: { prefix: 'SI', body: /^\d{8}$/ },
  SK: { prefix: 'SK', body: /^\d{10}$/ },
};

/** "de 123 456 789" → "DE123456789": what people paste, as it is stored. */
export const normalizeTaxId = (value: string): string => value.toUpperCase().replace(/[\s.-]/g, '');

/** The EU member state whose VAT number this is, or null when it is not an EU VAT number's shape. */
export function euVatCountry(taxId: string): string | null {
  const id = normalizeTaxId(taxId);
  for (const [country, { prefix, body }] of Object.entries(EU_VAT_FORMATS)) {
    if (id.startsWith(prefix) && body.test(id.slice(prefix.length))) return country;
  }
  return null;
}

/** The message for a tax ID that does not fit its country, or null when it fits (or no format is known). */
function taxIdProblem(country: string, taxId: string): string | null {
  const format = EU_VAT_FORMATS[country];
  if (!format) return /^[A-Z0-9/]{2,30}$/.test(normalizeTaxId(taxId)) ? null : 'Enter the tax ID as it is registered';
  const id = normalizeTaxId(taxId);
  if (!id.startsWith(format.prefix)) return `A VAT number from ${countryName(country)} starts with ${format.prefix}`;
  if (!format.body.test(id.slice(format.prefix.length))) return `This is not a valid VAT number for ${countryName(country)}`;
  return null;
}

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));
const requiredText = (max: number, label: string) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

/** `PUT /api/brand/billing`: the form's fields, with the messages it shows. */
export const billingDetailsSchema = z
  .object({
    legalName: requiredText(200, 'Legal name'),
    addressLine1: requiredText(200, 'Address'),
    addressLine2: optionalText(200, 'Address line 2'),
    postalCode: optionalText(20, 'Postal code'),
    city: requiredText(100, 'City'),
    country: z
      .string({ error: 'Country is required' })
      .trim()
      .toUpperCase()
      .refine(isCountry, 'Choose a country from the list'),
    taxId: optionalText(40, 'Tax ID').transform((v) => (v ? normalizeTaxId(v) : null)),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .nullish()
      .transform((v) => (v ? v : null))
      .pipe(z.email('Enter a valid e-mail address').max(254, 'Enter a valid e-mail address').nullable()),
  })
  .superRefine((v, ctx) => {
    if (!v.taxId) return;
    const problem = taxIdProblem(v.country, v.taxId);
    if (problem) ctx.addIssue({ code: 'custom', path: ['taxId'], message: problem });
  });

export type BillingDetailsInput = z.input<typeof billingDetailsSchema>;

/** `GET /api/brand/billing`: nulls until saved; `email` is the account's until another is saved. */
export interface BillingDetails {
  legalName: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  taxId: string | null;
  email: string;
}

/**
 * The answer of saved billing details (the organisation's or a client's row, or none yet): nulls
 * until saved, and `email` the given address until another is saved.
 */
export function billingDetailsOf(saved: { [K in keyof BillingDetails]?: string | null } | undefined, email: string): BillingDetails {
  return {
    legalName: saved?.legalName ?? null,
    addressLine1: saved?.addressLine1 ?? null,
    addressLine2: saved?.addressLine2 ?? null,
    postalCode: saved?.postalCode ?? null,
    city: saved?.city ?? null,
    country: saved?.country ?? null,
    taxId: saved?.taxId ?? null,
    email: saved?.email ?? email,
  };
}

export const TAX_DOCUMENT_KINDS = ['invoice', 'credit_note'] as const;
export type TaxDocumentKind = (typeof TAX_DOCUMENT_KINDS)[number];

/** Who an invoice is addressed to, frozen when it is issued. */
export interface DocumentParty {
  name: string;
  /** address lines, a second name (the brand), the country: as printed */
  lines: string[];
  taxId: string | null;
  email: string | null;
}

/**
 * Everything a tax document prints, frozen at issue: the PDF is rendered from this (and the
 * number and date) alone, so the same document is the same bytes every time it is downloaded.
 */
export interface TaxDocumentContent {
  seller: DocumentParty;
  buyer: DocumentParty;
  line: { title: string; outlet: string; type: string };
  /** an order's invoice (issue 46): every line, each with its amount; `line` is then the first */
  lines?: { title: string; outlet: string; type: string; totalCents: number; netCents: number }[];
  /** the amount charged, tax included (integer cents) */
  totalCents: number;
  netCents: number;
  taxCents: number;
  /** basis points: 2000 = 20 % */
  taxRateBp: number;
  currency: 'USD';
  reverseCharge: boolean;
  paymentReference: string;
  paidAt: string;
  testMode: boolean;
  /** a credit note: the invoice it cancels, and why */
  invoiceNumber?: string;
  refundReason?: string;
  /** a credit note of part of the payment (the rest stays paid) */
  partial?: boolean;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (field: string) =>
  z
    .string({ error: `${field} must be given once` })
    .refine((v) => ISO_DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      message: `${field} must be a date as yyyy-mm-dd`,
    })
    .optional();

/** `GET /api/admin/payments/export.csv`: the Payments screen's filters, and a date range (UTC days, inclusive). */
export const paymentsExportQuerySchema = z
  .strictObject(
    {
      status: z.enum(['paid', 'released', 'refunded'], { error: 'Unknown status' }).optional(),
      from: day('from'),
      to: day('to'),
      q: z
        .string({ error: 'q must be given once' })
        .transform((v) => v.trim())
        .pipe(z.string().max(200, 'q must be at most 200 characters'))
        .transform((v) => v || undefined)
        .optional(),
      // one client's payments (decision 035)
      clientId: z
        .string({ error: 'Client not found' })
        .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Client not found')
        .optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown parameter: ${issue.keys.join(', ')}` : undefined) },
  )
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'from must not be after to', path: ['from'] });

/** The export's columns, in order (its header row). */
export const PAYMENTS_EXPORT_COLUMNS = [
  'date',
  'amount',
  'currency',
  'status',
  'brand',
  'email',
  'opportunity',
  'outlet',
  'provider_reference',
  'invoice_number',
  'released_at',
  'refunded_at',
  // whose it is and for which of its clients (decisions 033, 035): last, so the columns before keep their places
  'organisation',
  'client',
  // what was given back (issue 47): the whole amount once refunded, else the parts refunded so far
  'refunded_amount',
] as const;
