/**
 * Whether a pid still runs (`pidAlive`): this process and a running child are alive; a child that
 * exited is not, nor a zombie — exited, not yet reaped by its parent — which holds no claim (a
 * `study serve` killed with `kill -9` in a container without an init stays a zombie for good).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive, pidStart } from './pids.js';

test('pidAlive: this process and a running child are alive, an exited one is not', async () => {
  assert.equal(pidAlive(process.pid), true);
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  const pid = child.pid as number;
  assert.equal(pidAlive(pid), true);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(pidAlive(pid), false);
});

test('pidAlive: a zombie (exited, its parent not reaping) is not alive', { skip: existsSync('/proc/self/stat') ? false : 'no /proc' }, async () => {
  // `sh` starts a short child, then becomes `sleep 30`, which never reaps it: the child stays a zombie.
  const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const zombie = Number((await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString())))).trim());
    const state = (): string => {
      const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
    };
    // A generous guard for the child to exit (it sleeps 50 ms).
    for (let i = 0; i < 600 && state() !== 'Z'; i++) await sleep(50);
    assert.equal(state(), 'Z', 'the child is a zombie');
    assert.notEqual(pidStart(zombie), null, 'its pid is still taken (/proc has it)');
    assert.equal(pidAlive(zombie), false);
    assert.equal(pidAlive(parent.pid as number), true, 'its parent, sleeping, is alive');
  } finally {
    parent.kill('SIGKILL');
  }
});
