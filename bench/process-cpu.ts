/**
 * CPU time a process (or a process group) has used, from Linux's /proc: the bench prints each
 * contender's CPU per request beside its throughput, which says where a ratio comes from (the
 * server's own work, not the shared machine). Elsewhere there is no /proc and no figure (null).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux.

/** utime + stime (fields 14 and 15 of stat), and the process group (field 5). */
function stat(pid: string): { group: number; ms: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { group: Number(fields[2]), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return null; // gone, or no /proc
  }
}

/** The CPU milliseconds of one process so far; null without /proc. */
export function processCpuMs(pid: number): number | null {
  return stat(String(pid))?.ms ?? null;
}

/** The CPU milliseconds of every live process in a process group (npm, and the server it started); null without /proc. */
export function groupCpuMs(group: number): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let ms = 0;
  for (const pid of pids) {
    const s = stat(pid);
    if (s?.group === group) ms += s.ms;
  }
  return ms;
}
