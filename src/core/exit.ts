/**
 * Work a process does once its own work is done, just before it exits or lets its event loop
 * drain: modules register it (`beforeProcessExit`) when they are loaded and need it; the program's
 * entry runs it (`processDone`) on every way out — the end of a command, an error, a signal's
 * shutdown. A library user's process that never calls `processDone` just skips it.
 *
 * @example
 * ```ts
 * import { beforeProcessExit, processDone } from 'dialogym';
 * beforeProcessExit(() => console.error('done'));
 * processDone(); // prints "done" once
 * processDone(); // nothing: each piece of work runs once
 * ```
 */
const pending = new Set<() => void>();

/**
 * Registers `work` to run at `processDone` (once, however often it is registered).
 *
 * @example
 * ```ts
 * import { beforeProcessExit, processDone } from 'dialogym';
 * beforeProcessExit(() => console.error('done'));
 * processDone(); // prints "done"
 * ```
 */
export function beforeProcessExit(work: () => void): void {
  pending.add(work);
}

/**
 * Runs the registered work, each once, in the order registered; a throw is ignored (the process is
 * leaving). Call it when a program's work is done, before it exits.
 *
 * @example
 * ```ts
 * import { openSqlite, processDone } from 'dialogym';
 * const db = openSqlite(':memory:');
 * console.log(db.prepare('SELECT 1 AS one').get()); // { one: 1 }
 * db.close();
 * processDone(); // on Node 20 with the WebAssembly driver: no hang at exit
 * ```
 */
export function processDone(): void {
  const works = [...pending];
  pending.clear();
  for (const work of works) {
    try {
      work();
    } catch {
      // nothing to report to: the process is on its way out
    }
  }
}
