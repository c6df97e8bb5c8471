import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { babiDir, skipUnless } from '../../test/shared-data.js';
import {
  formatBabiCandidates,
  formatBabiDialogs,
  formatBabiKb,
  parseBabiCandidates,
  parseBabiDialogs,
  parseBabiKb,
} from './babi.js';
import { FormatError } from '../core/errors.js';

test('all 27 original data files parse and round-trip byte-identical', { skip: skipUnless(babiDir) }, () => {
  const files = readdirSync(babiDir).filter((f) => f.startsWith('dialog-babi-') && f.endsWith('.txt'));
  assert.equal(files.length, 27);
  for (const f of files) {
    const text = readFileSync(join(babiDir, f), 'utf8');
    let out: string;
    if (f.includes('candidates')) out = formatBabiCandidates(parseBabiCandidates(text, f));
    else if (f.includes('-kb')) out = formatBabiKb(parseBabiKb(text, f));
    else {
      const p = parseBabiDialogs(text, f);
      out = formatBabiDialogs(p.dialogs, p.eol);
    }
    assert.ok(out === text, `${f} does not round-trip`);
  }
});

test('task 6 quirks are kept', { skip: skipUnless(babiDir) }, () => {
  const c = parseBabiCandidates(readFileSync(join(babiDir, 'dialog-babi-task6-dstc2-candidates.txt'), 'utf8'));
  assert.equal(c.candidates.length, 2407);
  assert.equal(c.finalNewline, false);
  assert.ok(c.candidates.includes(' you are welcome'));
  const kb = parseBabiKb(readFileSync(join(babiDir, 'dialog-babi-task6-dstc2-kb.txt'), 'utf8'));
  assert.equal(kb.sep, ' ');
  assert.equal(kb.facts.length, 649);
  const d = parseBabiDialogs(readFileSync(join(babiDir, 'dialog-babi-task6-dstc2-dev.txt'), 'utf8'));
  assert.equal(d.dialogs.length, 500);
  assert.ok(d.dialogs.some((x) => x.turns.some((t) => t.speaker === 'kb' && t.text === 'api_call no result')));
});

test('dialog parsing: turns, SILENCE and KB lines', () => {
  const text = '1 hi\thello\n2 <SILENCE>\tapi_call a b c d\n3 r1 R_rating 3\n\n1 bye\tok\n\n';
  const p = parseBabiDialogs(text, 'x.txt');
  assert.equal(p.dialogs.length, 2);
  assert.deepEqual(p.dialogs[0]?.turns, [
    { speaker: 'user', text: 'hi' },
    { speaker: 'bot', text: 'hello' },
    { speaker: 'user', text: '<SILENCE>' },
    { speaker: 'bot', text: 'api_call a b c d' },
    { speaker: 'kb', text: 'r1 R_rating 3' },
  ]);
  assert.equal(p.dialogs[1]?.line, 5);
  assert.equal(formatBabiDialogs(p.dialogs), text);
});

function errorOf(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof FormatError, `expected FormatError, got ${String(e)}`);
    return e;
  }
  assert.fail('no error thrown');
}

test('malformed dialog files give file:line: reason', () => {
  assert.match(errorOf(() => parseBabiDialogs('1 hi\thello\n2 bye\tok\n', 'a.txt')).message, /^a\.txt:2: unexpected end of file.*truncated/);
  assert.match(errorOf(() => parseBabiDialogs('1 hi\thello\n2 bye\tok', 'a.txt')).message, /^a\.txt:2: unexpected end of file/);
  assert.match(errorOf(() => parseBabiDialogs('1 hi\thello\nbye\tok\n\n', 'b.txt')).message, /^b\.txt:2: line does not start with a numeric ID/);
  assert.match(errorOf(() => parseBabiDialogs('1 hi\thello\n3 bye\tok\n\n', 'c.txt')).message, /^c\.txt:2: ID 3 does not follow ID 1/);
  assert.match(errorOf(() => parseBabiDialogs('1 hi\thello\n2 x\ty\n2 bye\tok\n\n', 'c.txt')).message, /^c\.txt:3: ID 2 does not follow ID 2/);
  assert.match(errorOf(() => parseBabiDialogs('2 hi\thello\n\n', 'd.txt')).message, /^d\.txt:1: dialog starts with ID 2/);
  // A candidates file given as dialogs says so (the parser's own complaint was about line 1).
  assert.equal(errorOf(() => parseBabiDialogs('1 a\n1 b\n', 'cands.txt')).message, 'cands.txt looks like a bAbI candidates file, not a bAbI dialog file');
  assert.match(errorOf(() => parseBabiDialogs('1 a\n2 b\n', 'd.txt')).message, /^d\.txt:1: a line without a TAB must be a KB-result line/);
  assert.match(errorOf(() => parseBabiDialogs('1 hi\thello\n\n\n', 'e.txt')).message, /^e\.txt:3: empty line outside a dialog/);
  assert.match(errorOf(() => parseBabiDialogs('1 hi\thel\tlo\n\n', 'f.txt')).message, /^f\.txt:1: more than one TAB/);
  assert.match(errorOf(() => parseBabiDialogs('1 hi\t \n\n', 'g.txt')).message, /^g\.txt:1: empty bot utterance/);
  assert.match(errorOf(() => parseBabiDialogs('', 'h.txt')).message, /^h\.txt:1: empty file/);
});

test('malformed candidates and KB files give file:line: reason', () => {
  assert.match(errorOf(() => parseBabiCandidates('1 a\n\n1 b\n', 'c.txt')).message, /^c\.txt:2: empty line/);
  assert.match(errorOf(() => parseBabiCandidates('1 a\nb\n', 'c.txt')).message, /^c\.txt:2: line does not start/);
  assert.match(errorOf(() => parseBabiKb('1 r R_a\tx\n1 r R_b y\n', 'k.txt')).message, /^k\.txt:2: attribute\/value separator changes/);
  assert.match(errorOf(() => parseBabiKb('1 r cuisine\tx\n', 'k.txt')).message, /^k\.txt:1: expected `name R_attr value`/);
});
