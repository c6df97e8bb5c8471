/**
 * Other processes by pid: whether one still runs (`pidAlive`), and when it started (`pidStart`), so
 * that a pid reused after a `kill -9` is not taken for the process that held it. Used by the
 * leftovers' owners: the atomic writers' markers (./files.ts), the WebAssembly SQLite marks
 * (./sqlite.ts), a study's server claim (src/study/store.ts).
 */
import { readFileSync } from 'node:fs';

/** Is process `pid` alive? A process of another user counts as alive (signal 0 answers EPERM). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
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
