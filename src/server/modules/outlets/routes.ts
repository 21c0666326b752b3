import { z } from 'zod';
import type { Module } from '../../deps';
import { idIn, route, userOf } from '../../lib/contract';
import { DomainError, badRequest, notFound } from '../../lib/errors';
import { readUpload, uploadRoutes } from '../../storage/read-upload';
import { readFile } from 'node:fs/promises';
import {
  metricsImport400Schema,
  metricsImportQuerySchema,
  metricsImportResultSchema,
  outletDetailSchema,
} from '../../../shared/schemas/outlets';
import { ImportFileError, importMetrics } from './metrics-import';
import { outletDetail } from './service';

const OUTLET_NOT_FOUND = 'Outlet not found';
const outletParams = z.object({ id: idIn(OUTLET_NOT_FOUND) });
/** An export of 5,000 rows is well under 1 MB; 10 MB leaves room for the tools' widest exports. */
const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Outlets (issue 48): the outlet page's data for brands and admins, and the import of the SEO
 * tools' CSV exports that keeps their metrics true.
 */
export const outletsModule: Module = async (app, { db, readDb }) => {
  for (const [path, access] of [
    ['/api/outlets/:id', 'brand'],
    ['/api/admin/outlets/:id', 'admin'],
  ] as const) {
    route(
      app,
      'GET',
      path,
      {
        access,
        actsOn: { own: 'an outlet of the catalogue, the same for every buyer' },
        tags: ['Outlets'],
        summary:
          access === 'brand' ? 'An outlet: its metrics, Byline’s record and what it offers' : 'An outlet, for an admin',
        description:
          'Each metric is the latest value from each source with the day it was true on (`stale` past 180 days); the domain authority typed on its newest opportunity is the `admin` source. The record is computed from its placements and the watch’s checks.',
        params: outletParams,
        response: { 200: outletDetailSchema },
        errors: { 404: OUTLET_NOT_FOUND },
      },
      async (req) => {
        // a brand's outlet page may trail an import by the replication lag (the replica, when there
        // is one); an admin's, after their own import, may not
        const outlet = await outletDetail(access === 'brand' ? readDb : db, req.params.id);
        if (!outlet) throw notFound('outlet_not_found', OUTLET_NOT_FOUND);
        return outlet;
      },
    );
  }

  uploadRoutes(app, (uploads) =>
    route(
      uploads,
      'POST',
      '/api/admin/outlets/metrics/import',
      {
        access: 'admin',
        tags: ['Outlets'],
        summary: 'Import outlet metrics from an Ahrefs, Moz or Semrush CSV export',
        description:
          'Rows are matched to outlets by the host of their website column (Target, Domain, URL…). `dryRun=1` says what would change and applies nothing. Otherwise every change is applied in one transaction; a file with any bad row is refused whole (400, every bad row with its line). Importing the same file again changes nothing. Values are as of the export’s date column when it has one, else the day of the import.',
        querystring: metricsImportQuerySchema,
        upload: {
          file: {
            description: 'the CSV (comma, semicolon or tab separated; UTF-8 or UTF-16), at most 10 MB and 50,000 rows',
            file: true,
          },
        },
        response: { 200: metricsImportResultSchema },
        errors: {
          400: metricsImport400Schema.describe(
            'Rows that cannot be used (`errors`: each with its line, as a dry run lists them; `result`: the whole check), or not an export of that tool (`errors.file`): nothing was applied',
          ),
          413: 'The file is larger than 10 MB, or has more than 50,000 rows (`errors.file`)',
        },
      },
      async (req) => {
        const admin = userOf(req);
        const { file } = await readUpload(req, 'file', IMPORT_MAX_BYTES, 'The file is larger than 10 MB');
        let bytes: Buffer;
        try {
          bytes = await readFile(file.path);
        } finally {
          await file.dispose();
        }
        const dryRun = req.query.dryRun === '1';
        try {
          const result = await importMetrics(db, bytes, { source: req.query.source, dryRun, adminId: admin.id });
          if (!dryRun && result.errors.length > 0) {
            const n = result.errors.length;
            // the rows by line in the dry run's shape (issue 57), with the whole result
            throw badRequest('metrics_rows_invalid', `${n} ${n === 1 ? 'row' : 'rows'} could not be used: nothing was imported`, undefined, {
              errors: result.errors,
              result,
            });
          }
          return result;
        } catch (err) {
          if (err instanceof ImportFileError) throw new DomainError(err.kind, err.kind === 'too_large' ? 'metrics_file_too_large' : 'metrics_file_invalid', err.message, { file: err.message });
          throw err;
        }
      },
    ),
  );
};
