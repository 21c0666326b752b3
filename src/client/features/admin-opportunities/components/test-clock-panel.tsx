import * as React from 'react';
import { Clock } from 'lucide-react';
import { TEST_MODE_NOTICE, testClockNotice } from '@shared/payment';
import { MAX_ADVANCE_HOURS } from '@shared/schemas/test-clock';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useAdvanceTestClock, useTestClock } from '../api/test-clock';

const formatTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' }) + ' UTC';

/**
 * The test clock (issue 59), on the admin dashboard in test mode only: Byline's time and buttons
 * that move it forward. Every rule reads the moved time and the sweeps that came due run before
 * the answer; the page's lists are fetched again, and the banner names the new time.
 */
export function TestClockPanel() {
  const clock = useTestClock();
  const advance = useAdvanceTestClock();
  const [hours, setHours] = React.useState('');
  const inputId = React.useId();
  if (!clock.data) return null;

  const move = (advanceHours: number) =>
    advance.mutate(advanceHours, {
      onSuccess: (moved) => {
        const banner = document.querySelector<HTMLElement>('.test-mode-banner');
        if (banner) {
          banner.textContent = `${TEST_MODE_NOTICE} · ${testClockNotice(new Date(moved.now), moved.offsetHours * 3_600_000)}`;
          // the page's "due in" and "late" words read Byline's time from it (lib/byline-time.ts)
          banner.dataset.clockOffsetMs = String(Math.round(Date.parse(moved.now) - Date.now()));
        }
        toast({ title: 'Test clock moved', description: `Byline's time is now ${formatTime(moved.now)}.` });
        setHours('');
      },
      onError: (err) => toast({ title: "Couldn't move the test clock", description: errorMessage(err, 'Please try again'), variant: 'destructive' }),
    });
  const custom = Number(hours);

  return (
    <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h2 id="test-clock-title" className="flex items-center gap-2 text-sm font-semibold">
          <Clock aria-hidden /> Test clock
        </h2>
        <p className="text-sm text-muted-foreground">
          Byline&apos;s time: <span className="font-medium text-foreground">{formatTime(clock.data.now)}</span>
          {clock.data.offsetHours > 0 ? ` (moved ${clock.data.offsetHours} h)` : ''}. Moving it runs every deadline that comes due.
        </p>
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (custom > 0) move(custom);
        }}
      >
        <Button type="button" variant="outline" size="sm" disabled={advance.isPending} onClick={() => move(24)}>
          +1 day
        </Button>
        <Button type="button" variant="outline" size="sm" disabled={advance.isPending} onClick={() => move(24 * 7)}>
          +1 week
        </Button>
        <div className="flex flex-col gap-1">
          <Label htmlFor={inputId} className="text-xs">
            Hours
          </Label>
          <Input
            id={inputId}
            type="number"
            min={1}
            max={MAX_ADVANCE_HOURS}
            step="any"
            inputMode="decimal"
            className="h-8 w-24"
            value={hours}
            onChange={(e) => setHours(e.target.value)}
          />
        </div>
        <Button type="submit" size="sm" disabled={advance.isPending || !(custom > 0)}>
          Move forward
        </Button>
      </form>
    </Card>
  );
}
