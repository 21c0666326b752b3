import { z } from 'zod';
import { METRIC_SOURCES, OUTLET_METRICS } from '../../outlets';
import { timestamp } from './common';

/** One metric of an outlet as it stands: the latest value from one source, with its date. */
export const outletMetricValueSchema = z
  .object({
    name: z.enum(OUTLET_METRICS),
    value: z.number(),
    source: z.enum(METRIC_SOURCES).describe('`admin`: the domain authority typed on the outlet’s newest opportunity'),
    asOf: timestamp.describe('the day the source reported it (`admin`: when that opportunity was listed)'),
    stale: z.boolean().describe('older than 180 days'),
  })
  .meta({ id: 'OutletMetricValue' });

export type OutletMetricValue = z.infer<typeof outletMetricValueSchema>;
