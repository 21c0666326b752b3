import { AlarmClock, PauseCircle, Timer } from 'lucide-react';
import { cn } from '@/lib/utils';
import { bylineNow } from '@/lib/byline-time';
import { dueWords, STAGE_CLOCKS, type Clock } from '@shared/stage-clock';

/*
 * A placement's stage clock (issue 59, decision 048) as the server answers it (`life.clock`): the
 * state is the server's, read against Byline's time; the time left or over is worded here. Dates are
 * printed in UTC, where business days are counted.
 */
const when = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

const TONE = {
  on_track: 'text-muted-foreground',
  at_risk: 'font-medium text-amber-700',
  late: 'font-medium text-red-700',
  paused: 'text-muted-foreground',
} as const;

/** "Due in 2 days", "At risk · due in 5 h", "1 day late", "Paused": the server's state first. */
function clockWords(clock: Clock, now = bylineNow()): string | null {
  if (!clock.state || !clock.dueAt) return null;
  if (clock.state === 'paused') return 'Paused';
  const words = dueWords(clock, now) ?? '';
  // the server's state wins over this device's time (a test clock, a wrong clock)
  if (clock.state === 'late') return words.endsWith('late') ? words : 'Late';
  if (words.endsWith('late')) return clock.state === 'at_risk' ? 'At risk · due now' : 'Due now';
  return clock.state === 'at_risk' ? `At risk · ${words.charAt(0).toLowerCase()}${words.slice(1)}` : words;
}

/** The clock on a card: the stage's time left or over, coloured by its state. */
export function StageClock({ clock, withStage = false, className }: { clock: Clock; withStage?: boolean; className?: string }) {
  const words = clockWords(clock);
  if (!words || !clock.stage || !clock.dueAt) return null;
  const Icon = clock.state === 'paused' ? PauseCircle : clock.state === 'late' ? AlarmClock : Timer;
  return (
    <span
      className={cn('inline-flex items-center gap-1.5', TONE[clock.state ?? 'on_track'], className)}
      data-testid="stage-clock"
      data-state={clock.state}
      title={`${STAGE_CLOCKS[clock.stage].label}: due ${when.format(new Date(clock.dueAt))} UTC`}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      {withStage && <span>{STAGE_CLOCKS[clock.stage].label}:</span>}
      <span>{words}</span>
    </span>
  );
}

/** The clock on the placement's page: the stage, its due time, its state. */
export function StageClockLine({ clock, reader }: { clock: Clock; reader: 'brand' | 'admin' }) {
  if (!clock.stage || !clock.dueAt) return null;
  const owner = clock.owner === reader || (clock.owner === 'team' && reader === 'admin') ? 'yours' : clock.owner === 'brand' ? 'the brand’s' : 'the editorial team’s';
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid="stage-clock-line">
      <span className="text-muted-foreground">
        {STAGE_CLOCKS[clock.stage].label} ({owner}): due {when.format(new Date(clock.dueAt))} UTC
      </span>
      <StageClock clock={clock} />
    </p>
  );
}
