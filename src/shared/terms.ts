import type { z } from 'zod';
import type { termsSchema } from './schemas/responses/account';

/** GET /api/terms: the terms brands agree to, as Markdown (the client renders it without any HTML). */
export type Terms = z.infer<typeof termsSchema>;
