/**
 * Preloaded with `node --import` into a CLI run by the interrupted-writes tests: counts the
 * file-system calls that write (mkdir, write, rename, rm, open/close), and `SIGKILL`s the process
 * just before call number `$DIALOGYM_TEST_KILL_AT` — a `kill -9` at an exact point of a write.
 * With `$DIALOGYM_TEST_OPS_LOG` set, the calls (name and path) are written there at exit.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const killAt = Number(process.env['DIALOGYM_TEST_KILL_AT'] ?? 0);
const log = process.env['DIALOGYM_TEST_OPS_LOG'];
const writeLog = fs.writeFileSync;
const ops: string[] = [];
let n = 0;
const wrapped = ['mkdirSync', 'writeFileSync', 'renameSync', 'rmSync', 'openSync', 'writeSync', 'closeSync'] as const;
for (const name of wrapped) {
  const original = fs[name] as (...args: unknown[]) => unknown;
  (fs as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]): unknown {
    n++;
    if (n === killAt) process.kill(process.pid, 'SIGKILL');
    if (log !== undefined) ops.push(`${name} ${typeof args[0] === 'string' ? args[0] : ''}`);
    return original.apply(this, args);
  };
}
syncBuiltinESMExports();
if (log !== undefined) process.on('exit', () => writeLog(log, ops.join('\n') + '\n'));
