import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks per second. */
const CLOCK_TICKS = 100;

/** CPU time (user + system, ms) a process has used so far; null when it is gone. */
export function procCpuMs(pid: number): number | null {
  return procTicks(pid, false);
}

/**
 * /proc/<pid>/stat's user and system time, in ms; with `children`, also that of its children that
 * have exited and been waited for (cutime, cstime).
 */
function procTicks(pid: number, children: boolean): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * CPU time of all PostgreSQL server processes on this machine (ms), when it runs here: every
 * database's, so other work on the same server counts too. A backend that exits (its connection
 * closed) takes its time out of the running processes' sum and into the postmaster's time of its
 * exited children, which is counted too: the total only grows.
 */
export function postgresCpuMs(): number | null {
  let total = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')) continue;
    } catch {
      continue;
    }
    const ms = procTicks(Number(entry), true);
    if (ms !== null) {
      total += ms;
      found = true;
    }
  }
  return found ? total : null;
}
