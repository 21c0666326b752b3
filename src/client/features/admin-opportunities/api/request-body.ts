import type { OpportunityRequest } from '@shared/schemas/opportunity';

/** Spec §7: the opportunity fields with exampleUrls omitted when there are none (the server reads that as []). */
export function toRequestBody({ exampleUrls, ...rest }: OpportunityRequest): Partial<OpportunityRequest> {
  return exampleUrls.length ? { ...rest, exampleUrls } : rest;
}
