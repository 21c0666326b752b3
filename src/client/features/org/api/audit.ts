import { useQuery } from '@tanstack/react-query';
import type { AuditActor, AuditEntry, AuditQuery } from '@shared/schemas/org';
import { apiGet } from '@/lib/api';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl } from '@shared/api-paths';

/** The audit log's filters as a query (the empty ones left out): the list and the CSV take the same. */
export const auditParams = (filters: AuditQuery): Record<string, string | undefined> => ({ ...filters });

/** GET /api/org/audit (owner and admins only), page by page, newest first. */
export const useAuditLog = (filters: AuditQuery) =>
  usePagedList<AuditEntry>([apiUrl('/api/org/audit'), 'list', filters], apiUrl('/api/org/audit', {}, auditParams(filters)));

/** GET /api/org/audit/actors: everyone with entries, removed members too (the Member filter). */
export const useAuditActors = () =>
  useQuery({ queryKey: [apiUrl('/api/org/audit'), 'actors'], queryFn: () => apiGet<AuditActor[]>(apiUrl('/api/org/audit/actors')), refetchOnMount: 'always' });
