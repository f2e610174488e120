/**
 * CPU time a process (or a process group) has used, from Linux's /proc: the bench prints each
 * contender's CPU per request beside its throughput, which says where a ratio comes from (the
 * server's own work, not the shared machine). Elsewhere there is no /proc and no figure (null).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux.

/** utime + stime (fields 14 and 15 of stat), its reaped children's cutime + cstime (16, 17), the parent (4) and the process group (5). */
function stat(pid: string): { parent: number; group: number; ms: number; childrenMs: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return {
      parent: Number(fields[1]),
      group: Number(fields[2]),
      ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      childrenMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
    };
  } catch {
    return null; // gone, or no /proc
  }
}

/** The pids /proc lists; null without /proc. */
function allPids(): string[] | null {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
}

/** The CPU milliseconds of one process so far; null without /proc. */
export function processCpuMs(pid: number): number | null {
  return stat(String(pid))?.ms ?? null;
}

/** The CPU milliseconds of every live process in a process group (npm, and the server it started); null without /proc. */
export function groupCpuMs(group: number): number | null {
  const pids = allPids();
  if (!pids) return null;
  let ms = 0;
  for (const pid of pids) {
    const s = stat(pid);
    if (s?.group === group) ms += s.ms;
  }
  return ms;
}

/**
 * The CPU a PostgreSQL server on this machine spends on some work: its postmaster's own, its live
 * children's (backends, WAL writer, checkpointer, autovacuum) and what its exited children used
 * (cutime: the postmaster reaps them, the backends of pgbench's connections among them). Found
 * from one backend's pid (`SELECT pg_backend_pid()`); null when that pid is not a PostgreSQL
 * process here (a server on another machine or in a container).
 */
export function postgresCpu(backendPid: number): { during<T>(work: () => Promise<T>): Promise<{ result: T; ms: number | null }> } | null {
  const postmaster = stat(String(backendPid))?.parent;
  if (!postmaster || !isPostgres(backendPid) || !isPostgres(postmaster)) return null;
  /** The postmaster's live children, each with its CPU so far (one read of /proc/PID/stat each). */
  const children = () =>
    (allPids() ?? []).flatMap((pid) => {
      const s = stat(pid);
      return s?.parent === postmaster ? [{ pid, ms: s.ms }] : [];
    });
  const total = (): number | null => {
    const own = stat(String(postmaster));
    if (!own) return null;
    return children().reduce((ms, child) => ms + child.ms, own.ms + own.childrenMs);
  };
  return {
    async during(work) {
      const present = new Set(children().map((child) => child.pid));
      const before = total();
      const result = await work();
      // A backend whose client just left is counted once reaped: until then a zombie shows no CPU.
      // Wait (up to 2 s) until every child started during the work has gone (autovacuum may not).
      for (let waited = 0; waited < 2000 && children().some((child) => !present.has(child.pid)); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const after = total();
      return { result, ms: before === null || after === null ? null : after - before };
    },
  };
}

function isPostgres(pid: number): boolean {
  try {
    return /^(postgres|postmaster)/.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
  } catch {
    return false;
  }
}
