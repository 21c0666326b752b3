import { advanceClockSchema, testClockSchema } from '../../../shared/schemas/test-clock';
import type { Module } from '../../deps';
import { route } from '../../lib/contract';
import { testClockAvailable } from '../../lib/clock';
import { moveTestClock, readTestClock } from './service';

/**
 * The test clock (issue 59, as Stripe's test clocks do): while the portal runs in test mode (the
 * built-in test checkout, never in production) an admin moves Byline's time forward for every
 * instance and every sweep that came due runs before the answer. Elsewhere the routes are not
 * registered at all: they answer 404 as an unknown route does.
 */
export const testClockModule: Module = async (app, { db, config, provider, runDueSweeps }) => {
  if (!testClockAvailable(config.NODE_ENV, provider.name)) return;
  route(
    app,
    'GET',
    '/api/admin/test-clock',
    {
      access: 'admin',
      tags: ['Operations'],
      summary: "The test clock: Byline's time and how far it is ahead of the wall clock (test mode only)",
      description: 'Answers 404 in production and with a card provider other than the built-in test checkout.',
      response: { 200: testClockSchema },
    },
    async () => readTestClock(db),
  );
  route(
    app,
    'POST',
    '/api/admin/test-clock',
    {
      access: 'admin',
      tags: ['Operations'],
      summary: "Move Byline's time forward (test mode only), then run every sweep that came due",
      description:
        'Moves the time every rule reads (stage clocks, promises, reminders, the guarantee, deadlines of disputes, cancellations and swaps, publication checks, scheduled reports) for every instance, runs the sweeps that came due before it answers, and answers the new time. The clock only moves forward. Answers 404 in production and with a card provider other than the built-in test checkout.',
      body: advanceClockSchema,
      response: { 200: testClockSchema },
    },
    async (req) => moveTestClock(db, req.body.advanceHours, runDueSweeps),
  );
};
