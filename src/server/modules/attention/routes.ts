import { attentionListSchema } from '../../../shared/schemas/responses/conversation';
import type { Module } from '../../deps';
import { route } from '../../lib/contract';
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
      summary: 'Needs attention: the placements waiting on the editorial team, most urgent first',
      response: { 200: attentionListSchema },
    },
    async () => attentionList(db),
  );
};
