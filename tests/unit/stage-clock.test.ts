import { describe, expect, it } from 'vitest';
import { clockOf, clockStateOf, dueWords, moveReason, promiseMoveSentence, type ClockInputs } from '../../src/shared/stage-clock';

const HOUR = 3_600_000;
const start = '2027-01-04T10:00:00.000Z';
const due = '2027-01-09T10:00:00.000Z'; // 120 hours later
const at = (hoursAfterStart: number) => new Date(Date.parse(start) + hoursAfterStart * HOUR);

describe('a stage clock’s state', () => {
  it('is on track, at risk with a fifth of its time left, late past due, paused while held', () => {
    const c = { startedAt: start, dueAt: due, pausedAt: null };
    expect(clockStateOf(c, at(0))).toBe('on_track');
    expect(clockStateOf(c, at(95))).toBe('on_track'); // 25 of 120 hours left
    expect(clockStateOf(c, at(96))).toBe('at_risk'); // 80% elapsed: 24 left
    expect(clockStateOf(c, at(120))).toBe('at_risk'); // due now
    expect(clockStateOf(c, at(120.01))).toBe('late');
    expect(clockStateOf({ ...c, pausedAt: at(10).toISOString() }, at(200))).toBe('paused');
    expect(clockStateOf({ ...c, dueAt: null }, at(0))).toBeNull();
  });

  it('says the time left or over', () => {
    const c = (state: 'on_track' | 'late' | 'paused') => ({ dueAt: due, state });
    expect(dueWords(c('on_track'), at(72))).toBe('Due in 2 days');
    expect(dueWords(c('on_track'), at(96))).toBe('Due in 1 day');
    expect(dueWords(c('on_track'), at(115))).toBe('Due in 5 h');
    expect(dueWords(c('late'), at(122))).toBe('2 h late');
    expect(dueWords(c('late'), at(120 + 49))).toBe('2 days late');
    expect(dueWords(c('paused'), at(0))).toBe('Paused');
    expect(dueWords({ dueAt: null, state: null }, at(0))).toBeNull();
  });
});

describe('"Live by" moved, in words', () => {
  it('names each reason and the whole move', () => {
    const at = '2027-01-11T09:00:00.000Z';
    expect(moveReason({ stage: 'brief', to: 'draft', days: 2, at })).toBe('brief sent 2 days late');
    expect(moveReason({ stage: 'review', to: 'edits', days: 1, at })).toBe('review sent back 1 day late');
    expect(moveReason({ stage: 'review', to: 'publication', days: 3, at })).toBe('draft approved 3 days late');
    expect(moveReason({ stage: 'publication', to: 'held', days: 1, at })).toBe('held by the brand 1 day during publication');
    expect(promiseMoveSentence(0, [])).toBeNull();
    expect(
      promiseMoveSentence(3, [
        { stage: 'brief', to: 'draft', days: 2, at },
        { stage: 'review', to: 'edits', days: 1, at },
      ]),
    ).toBe('moved 3 days: brief sent 2 days late; review sent back 1 day late');
  });

  it('makes the answers’ clock: the owner from the stage, no state without a stage', () => {
    const inputs: ClockInputs = { stage: 'edits', startedAt: start, dueAt: due, pausedAt: null, liveBy: due, movedDays: 0, moves: [] };
    expect(clockOf(inputs, at(1))).toMatchObject({ stage: 'edits', owner: 'team', state: 'on_track', promiseMoved: null });
    expect(clockOf({ ...inputs, stage: 'review' }, at(1)).owner).toBe('brand');
    expect(clockOf({ ...inputs, stage: null, dueAt: null, startedAt: null }, at(1))).toMatchObject({ stage: null, owner: null, state: null });
  });
});
