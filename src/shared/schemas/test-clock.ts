import { z } from 'zod';

/** The most the test clock moves in one step (400 days): a campaign's year and its guarantee. */
export const MAX_ADVANCE_HOURS = 24 * 400;

/** POST /api/admin/test-clock (issue 59): how far to move Byline's time forward, in hours. */
export const advanceClockSchema = z.object({
  advanceHours: z
    .number({ error: 'Give the hours to move the clock forward, as a number' })
    .refine(Number.isFinite, 'Give the hours to move the clock forward, as a number')
    .positive('The test clock only moves forward: give a number of hours above 0')
    .max(MAX_ADVANCE_HOURS, `Move the test clock by at most ${MAX_ADVANCE_HOURS} hours (400 days) at a time`),
});

/** The test clock: Byline's time now and how far it is ahead of the wall clock. */
export const testClockSchema = z.object({
  now: z.iso.datetime().describe("Byline's time: the wall clock moved by the test clock"),
  offsetHours: z.number().describe('how far Byline’s time is ahead of the wall clock, in hours'),
});
export type TestClock = z.infer<typeof testClockSchema>;
