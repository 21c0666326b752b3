import * as React from 'react';
import { FileBarChart, Plus } from 'lucide-react';
import { roleCan } from '@shared/org';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { useOrg } from '@/lib/org';
import { useReports } from '../api/reports';
import { NewReportDialog } from '../components/new-report-dialog';
import { ReportRow } from '../components/report-row';
import { ShareLinks } from '../components/share-links';

/**
 * /brand/reports (issue 48): the organisation's reports of its placements as PDF and CSV, white
 * label when it wants, shared by links that expire and sent on a schedule; and every share link.
 */
export function ReportsPage() {
  const org = useOrg();
  const reports = useReports();
  // a viewer reads and downloads; making, sharing and scheduling is work
  const canWork = roleCan(org.data?.role, 'work');
  const [creating, setCreating] = React.useState(false);
  const list = reports.data ?? [];
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Reports</h1>
          <p className="text-muted-foreground">
            Your placements as PDF and CSV, for you or your clients: under your own logo if you like, shared by a link
            or sent by e-mail.
          </p>
        </div>
        {canWork && (
          <Button className="sm:shrink-0" onClick={() => setCreating(true)}>
            <Plus /> New report
          </Button>
        )}
      </div>
      {reports.isLoading || org.isLoading ? (
        <PageSpinner />
      ) : reports.isError ? (
        <QueryError query={reports} title="Couldn't load the reports" />
      ) : list.length === 0 ? (
        // a viewer cannot make one: told where reports come from, not asked to make one (issue 57)
        <EmptyState
          icon={<FileBarChart />}
          title="No reports yet"
          description={
            canWork
              ? 'Make one to download your placements as PDF or CSV, share them by a link or send them on a schedule.'
              : 'Reports your team makes appear here, for you to download as PDF or CSV. As a viewer you read reports but do not make them: ask a teammate for one.'
          }
        >
          {canWork && (
            <Button variant="outline" onClick={() => setCreating(true)}>
              <Plus /> New report
            </Button>
          )}
        </EmptyState>
      ) : (
        <Card>
          <CardHeader className="pb-2">
            <CardTitle className="text-base">
              {list.length} {list.length === 1 ? 'report' : 'reports'}
            </CardTitle>
          </CardHeader>
          <ul className="divide-y border-t" data-testid="report-list">
            {list.map((r) => (
              <ReportRow key={r.id} report={r} canWork={canWork} />
            ))}
          </ul>
        </Card>
      )}
      <ShareLinks canWork={canWork} />
      {canWork && <NewReportDialog open={creating} onOpenChange={setCreating} />}
    </div>
  );
}
