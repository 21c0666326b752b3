import { z } from 'zod';
import type { Module } from '../../deps';
import { memberOf, placementParams, route } from '../../lib/contract';
import { cancelLatePlacement } from './late-credit';

/** Lateness (issue 59, decision 049): the brand's cancel of a placement very late past its "Live by" date. The credits are the job queue's. */
export const latenessModule: Module = async (app, { db, provider, config }) => {
  route(
    app,
    'POST',
    '/api/brand/placements/:placementId/cancel-late',
    {
      access: 'brand',
      actsOn: { placement: 'placementId' },
      can: 'buy',
      tags: ['Placements'],
      summary: 'Cancel a placement that is very late, refunded all that is left',
      description: `Once a placement is LATE_CANCEL_DAYS (${config.LATE_CANCEL_DAYS} here) business days past its "Live by" date and not published, the brand cancels it in one click: all that is left after its late credits is refunded, with its credit note and e-mail (issue 59).`,
      params: placementParams,
      response: { 200: z.object({ refundedUsd: z.string() }) },
      errors: {
        409: 'Not late enough yet (the message says how late it is), or not in progress (published, refunded or being refunded)',
      },
    },
    async (req) => cancelLatePlacement(db, provider, memberOf(req), req.params.placementId),
  );
};
