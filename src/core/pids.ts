/**
 * Other processes by pid: whether one still runs (`pidAlive`), and when it started (`pidStart`), so
 * that a pid reused after a `kill -9` is not taken for the process that held it. Used by the
 * leftovers' owners: the atomic writers' markers (./files.ts), the WebAssembly SQLite marks
 * (./sqlite.ts), a study's server claim (src/study/store.ts).
 */
import { readFileSync } from 'node:fs';

/**
 * Is process `pid` alive? A process of another user counts as alive (signal 0 answers EPERM); a
 * zombie does not (it has exited, its files and locks are released, only its parent has not reaped
 * it yet — for good where nothing reaps orphans, a container whose PID 1 is no init): Linux's
 * /proc/<pid>/stat state `Z` or `X`.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !/^[ZX]$/.test(pidState(pid) ?? '');
}

/** The state letter of process `pid` (Linux's /proc/<pid>/stat field 3: R, S, Z…), null where /proc does not tell. */
function pidState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** The start time of process `pid` (clock ticks since boot, Linux's /proc/<pid>/stat field 22), null where /proc does not tell. */
export function pidStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
