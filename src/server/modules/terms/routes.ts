import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { termsSchema } from '../../../shared/schemas/responses/account';
import { fairRulesMarkdown, type Terms } from '../../../shared/terms';
import { DECIDE_DAYS, ESCALATE_DAYS, GUARANTEE_DAYS } from '../../../shared/constants';
import type { Module } from '../../deps';
import { route } from '../../lib/contract';
import { defaultTermsFile } from '../../paths';

// far more than any terms need; a wrong TERMS_FILE (a database dump) is refused rather than served
const MAX_BYTES = 512 * 1024;

/**
 * Reads the terms once, at start: a missing, huge or non-text TERMS_FILE stops the server with a
 * message naming the variable, instead of every brand meeting a broken terms page later.
 */
async function readTerms(file: string | undefined): Promise<string> {
  const where = file ? path.resolve(file) : defaultTermsFile;
  const name = file ? `TERMS_FILE (${where})` : `the default terms (${where})`;
  let bytes: Buffer;
  try {
    bytes = await readFile(where);
  } catch (err) {
    throw new Error(`Cannot read ${name}: ${(err as Error).message}`);
  }
  if (bytes.length > MAX_BYTES) throw new Error(`${name} is larger than ${MAX_BYTES / 1024} KB`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${name} is not UTF-8 text`);
  }
  if (!text.trim()) throw new Error(`${name} is empty`);
  return text.replace(/^\uFEFF/, '');
}

/** The terms page's text: public, since a visitor reads them before signing up. */
export const termsModule: Module = async (app, { config }) => {
  // the fair terms' numbers are the settings the server enforces (issue 47)
  const rules = {
    revisionsIncluded: config.REVISIONS_INCLUDED,
    responseDays: config.RESPONSE_DAYS,
    disputeDays: config.DISPUTE_DAYS,
    escalateDays: ESCALATE_DAYS,
    decideDays: DECIDE_DAYS,
    swapDays: config.SWAP_DAYS,
    restoreDays: config.RESTORE_DAYS,
    publicationGuaranteeDays: config.PUBLICATION_GUARANTEE_DAYS,
    guaranteeDays: GUARANTEE_DAYS,
    reminderHours: config.REMINDER_HOURS,
    promiseMinDeliveries: config.PROMISE_MIN_DELIVERIES,
    briefDays: config.BRIEF_DAYS,
    lateCreditPercent: config.LATE_CREDIT_PERCENT,
    lateCreditMaxPercent: config.LATE_CREDIT_MAX_PERCENT,
    lateCancelDays: config.LATE_CANCEL_DAYS,
    reviewDays: config.REVIEW_DAYS,
    editDays: config.EDIT_DAYS,
  };
  const terms: Terms = { markdown: await readTerms(config.TERMS_FILE), rules, rulesMarkdown: fairRulesMarkdown(rules) };
  route(
    app,
    'GET',
    '/api/terms',
    {
      access: 'public',
      tags: ['Account'],
      summary: 'The terms of service, as Markdown',
      description: 'Read from TERMS_FILE at start; cached for five minutes (`Cache-Control: public, max-age=300`).',
      response: { 200: termsSchema },
    },
    async (_req, reply) => {
      // the file is read at start, so a replaced file shows after a restart; five minutes of caching is plenty
      void reply.header('Cache-Control', 'public, max-age=300');
      return terms;
    },
  );
};
