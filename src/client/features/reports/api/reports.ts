import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReportCadence, ReportColumn } from '@shared/reports';
import type { Report } from '@shared/schemas/reports';
import { apiGet, apiRequest, apiUpload } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { sharesKey, type ShareLink } from '@/components/share-link-dialog';
import { apiUrl } from '@shared/api-paths';

const reportsKey = [apiUrl('/api/org/reports')];

/** GET /api/org/reports: the organisation's reports, newest first. */
export const useReports = () => useQuery({ queryKey: reportsKey, queryFn: () => apiGet<Report[]>(apiUrl('/api/org/reports')) });

export interface NewReport {
  name: string;
  clientId: string | null;
  from: string | null;
  to: string | null;
  status: Report['status'];
  columns: ReportColumn[];
  showPrices: boolean;
  whiteLabel: { logoFile: string | null; color: string | null; footer: string | null } | null;
}

/** POST /api/org/reports */
export function useCreateReport() {
  return useMutation({
    mutationFn: (report: NewReport) => apiRequest<{ id: string }>('POST', apiUrl('/api/org/reports'), report),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey }),
  });
}

/** POST /api/org/reports/logo: a white label's logo (PNG or JPEG, at most 2 MB); its /uploads/… path. */
export function useUploadReportLogo() {
  return useMutation({
    mutationFn: (file: File) => apiUpload<{ url: string }>(apiUrl('/api/org/reports/logo'), 'logo', file),
  });
}

/** PUT /api/org/reports/{id}/schedule: weekly, monthly or off (null), to up to 20 addresses. */
export function useSetSchedule(id: string) {
  return useMutation({
    mutationFn: (schedule: { cadence: ReportCadence | null; recipients: string[] }) =>
      apiRequest<Report>('PUT', apiUrl('/api/org/reports/:id/schedule', { id }), schedule),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey }),
  });
}

/** GET /api/org/shares: the organisation's share links, with how often each was opened. */
export const useShares = () => useQuery({ queryKey: sharesKey, queryFn: () => apiGet<ShareLink[]>(apiUrl('/api/org/shares')) });

/** DELETE /api/org/shares/{id}: the link answers 404 at once. */
export function useRevokeShare() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', apiUrl('/api/org/shares/:id', { id })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesKey }),
  });
}

/**
 * The clients a report may be about: the organisation's (a member limited to some: theirs). A
 * client reviewer may not read the client list (it shows spend), so its clients are named by their
 * placements (My Articles, one each) or by a report already made for them.
 */
/** The clients a report may be for: their names only (GET /api/org/clients/names, which a client reviewer may read too). */
export function useReportClients(): { id: string; name: string }[] {
  return (
    useQuery({
      queryKey: [apiUrl('/api/org/clients/names')],
      queryFn: () => apiGet<{ id: string; name: string }[]>(apiUrl('/api/org/clients/names')),
      staleTime: 60_000,
    }).data ?? []
  );
}
