import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beforeProcessExit, processDone } from './exit.js';

test('processDone runs each registered work once, in order, past a throw', () => {
  const seen: string[] = [];
  const a = (): void => void seen.push('a');
  beforeProcessExit(a);
  beforeProcessExit(() => {
    throw new Error('ignored');
  });
  beforeProcessExit(a); // registered twice: runs once
  beforeProcessExit(() => void seen.push('b'));
  processDone();
  assert.deepEqual(seen, ['a', 'b']);
  processDone();
  assert.deepEqual(seen, ['a', 'b'], 'nothing left to run');
});
