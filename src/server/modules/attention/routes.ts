import type { Module } from '../../deps';
import { requireAdmin } from '../auth/guards';
import { attentionList } from './service';

/** The admins' "Needs attention" list (issue 19): what waits on the editorial team, the most urgent first. */
export const attentionModule: Module = async (app, { db }) => {
  app.get('/api/admin/attention', async (req) => {
    requireAdmin(req);
    return attentionList(db);
  });
};
