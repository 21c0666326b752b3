import { attentionListSchema } from '../../../shared/schemas/responses/conversation';
import type { Module } from '../../deps';
import { route, userOf } from '../../lib/contract';
import { now } from '../../lib/clock';
import { ATTENTION_LIMIT } from '../../../shared/attention';
import { attentionList } from './service';

/** The admins' "Needs attention" list (issue 19): what waits on the editorial team, the most urgent first. */
export const attentionModule: Module = async (app, { db }) => {
  route(
    app,
    'GET',
    '/api/admin/attention',
    {
      access: 'admin',
      tags: ['Placements'],
      summary: 'Needs attention: the placements waiting on the editorial team, the admin’s own then the most urgent first',
      response: { 200: attentionListSchema },
    },
    async (req) => attentionList(db, now(), ATTENTION_LIMIT, userOf(req).id),
  );
};
