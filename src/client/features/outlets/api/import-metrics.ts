import { useMutation } from '@tanstack/react-query';
import type { ImportSource } from '@shared/outlets';
import type { MetricsImportResult } from '@shared/schemas/outlets';
import { apiUpload } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { outletsKey } from './get-outlet';
import { apiUrl } from '@shared/api-paths';

interface ImportInput {
  source: ImportSource;
  file: File;
  /** true: say what would change, apply nothing */
  dryRun: boolean;
}

/**
 * POST /api/admin/outlets/metrics/import?source=…[&dryRun=1] with the CSV export. Applied, the
 * outlet pages and the catalogue's cards (which show the metrics) are read again.
 */
export function useImportMetrics() {
  return useMutation({
    mutationFn: ({ source, file, dryRun }: ImportInput) =>
      apiUpload<MetricsImportResult>(
        apiUrl('/api/admin/outlets/metrics/import', {}, { source, dryRun: dryRun ? 1 : undefined }),
        'file',
        file,
      ),
    onSuccess: (result) => {
      if (!result.applied) return;
      void queryClient.invalidateQueries({ queryKey: outletsKey });
      void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/opportunities')] });
    },
  });
}
