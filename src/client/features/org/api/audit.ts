import { useQuery } from '@tanstack/react-query';
import type { AuditActor, AuditEntry, AuditQuery } from '@shared/schemas/org';
import { apiGet } from '@/lib/api';
import { usePagedList } from '@/lib/paged-query';

/** The audit log's filters as a query string ('' for none): the list and the CSV take the same. */
export function auditSearch(filters: AuditQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** GET /api/org/audit (owner and admins only), page by page, newest first. */
export const useAuditLog = (filters: AuditQuery) =>
  usePagedList<AuditEntry>(['/api/org/audit', 'list', filters], `/api/org/audit${auditSearch(filters)}`);

/** GET /api/org/audit/actors: everyone with entries, removed members too (the Member filter). */
export const useAuditActors = () =>
  useQuery({ queryKey: ['/api/org/audit', 'actors'], queryFn: () => apiGet<AuditActor[]>('/api/org/audit/actors'), refetchOnMount: 'always' });
