import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { CATALOGUE } from './catalogue.js';
import { resolveRef } from './refs.js';
import { dataRoot } from './store.js';
import { mirrorUrl } from './fetch.js';

test('dataset references resolve in the data folder; paths stay paths; a missing dataset says what to fetch', () => {
  const root = mkdtempSync(join(tmpdir(), 'refs-'));
  try {
    const babi = join(root, 'dialog-bAbI-tasks');
    mkdirSync(babi);
    writeFileSync(join(babi, 'dialog-babi-task5-full-dialogs-tst-OOV.txt'), '');
    writeFileSync(join(babi, 'dialog-babi-candidates.txt'), '');
    const r = (v: string): string | undefined => resolveRef('--data', v, CATALOGUE, root)?.path;
    assert.equal(r('babi:task5-tst-oov'), join(babi, 'dialog-babi-task5-full-dialogs-tst-OOV.txt'));
    assert.equal(r('babi:TASK5-tst-OOV'), join(babi, 'dialog-babi-task5-full-dialogs-tst-OOV.txt'));
    assert.equal(r('babi:candidates'), join(babi, 'dialog-babi-candidates.txt'));
    assert.equal(r('babi:dialog-babi-candidates.txt'), join(babi, 'dialog-babi-candidates.txt'));
    assert.equal(r('babi'), babi);
    // Not references: paths, and prefixes no dataset has.
    assert.equal(r('data/x.txt'), undefined);
    assert.equal(r('foo:bar'), undefined);
    assert.equal(r(root), undefined);
    assert.throws(() => r('babi:task1-trn'), (e: unknown) => e instanceof ConfigError && e.message === `--data babi:task1-trn: bAbI dialog tasks 1-6 not found in ${babi} (run \`dialogym data fetch babi\`)`);
    assert.throws(() => r('babi:task7-trn'), /^ConfigError: --data babi:task7-trn: no such babi file \(names: babi:candidates, /);
    assert.throws(() => r('babi:../x'), /no such babi file/);
    assert.throws(() => r('dstc6:tst1/task1'), new RegExp(`DSTC6 Track 1 test sets tst1-tst4 with answers, extended KBs 1 and 2 not found in ${root}/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0 \\(run \`dialogym data fetch dstc6\`\\)`));
    assert.throws(() => r('dstc6:trn/task3'), /run `dialogym data fetch dstc6-train`/);
    assert.throws(() => r('airdialogue:train-data'), /run `dialogym data fetch airdialogue`/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the data folder: $DIALOGYM_DATA, else the platform user data folder', () => {
  assert.deepEqual(dataRoot({ DIALOGYM_DATA: '/d' }, 'linux', '/home/u'), { dir: '/d', source: '$DIALOGYM_DATA' });
  assert.equal(dataRoot({ XDG_DATA_HOME: '/x' }, 'linux', '/home/u').dir, '/x/dialogym');
  assert.equal(dataRoot({}, 'linux', '/home/u').dir, '/home/u/.local/share/dialogym');
  assert.equal(dataRoot({}, 'darwin', '/Users/u').dir, '/Users/u/Library/Application Support/dialogym');
  assert.equal(dataRoot({ LOCALAPPDATA: 'C:/L' }, 'win32', 'C:/U').dir, join('C:/L', 'dialogym'));
});

test('a mirror serves the archives at the URL paths of the originals', () => {
  assert.equal(mirrorUrl('http://parl.ai/downloads/dialog_babi/dialog_babi.tar.gz', 'http://m.example/data/'), 'http://m.example/data/downloads/dialog_babi/dialog_babi.tar.gz');
  assert.equal(mirrorUrl('https://storage.googleapis.com/airdialogue/airdialogue_data.tar.gz', undefined), 'https://storage.googleapis.com/airdialogue/airdialogue_data.tar.gz');
});
