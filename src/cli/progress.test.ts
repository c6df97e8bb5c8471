import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, progress } from './progress.js';

/** What `fn` writes on stderr when it is not a terminal, line by line. */
function plainLines(fn: () => void): string[] {
  const lines: string[] = [];
  const write = process.stderr.write;
  const wasTty = process.stderr.isTTY;
  (process.stderr as { isTTY: boolean }).isTTY = false;
  process.stderr.write = ((s: string) => {
    lines.push(s);
    return true;
  }) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stderr.write = write;
    (process.stderr as { isTTY: boolean }).isTTY = wasTty;
  }
  return lines;
}

test('formatDuration rounds once: a minute is never 60s, an unknown ETA is ?', () => {
  assert.equal(formatDuration(0), '0.0s');
  assert.equal(formatDuration(4.24), '4.2s');
  assert.equal(formatDuration(9.96), '10s');
  assert.equal(formatDuration(59.4), '59s');
  assert.equal(formatDuration(59.6), '1m00s');
  assert.equal(formatDuration(239.7), '4m00s');
  assert.equal(formatDuration(185), '3m05s');
  assert.equal(formatDuration(3599.6), '1h00m');
  assert.equal(formatDuration(7620), '2h07m');
  assert.equal(formatDuration(Number.NaN), '?');
  assert.equal(formatDuration(Number.POSITIVE_INFINITY), '?');
  assert.equal(formatDuration(-1), '?');
});

test('plain progress prints the last line once however often it is reported, and no NaN ETA', () => {
  const lines = plainLines(() => {
    const p = progress('eval', 20);
    p.update(0);
    for (let d = 1; d <= 20; d++) p.update(d);
    p.update(20);
    p.update(20);
    p.stop();
  });
  assert.equal(lines.filter((l) => l.startsWith('eval: 20/20 (100%)')).length, 1, lines.join(''));
  assert.match(lines[0] ?? '', /^eval: 0\/20 \(0%\) elapsed 0\.\ds eta \?\n$/);
  for (const l of lines) assert.doesNotMatch(l, /NaN|Infinity|60s/);
});

test('plain progress prints at least a line a minute while work is reported (a 2-hour run is not silent for 12 minutes)', () => {
  let clock = 0;
  const lines = plainLines(() => {
    // 10,000 batches of 0.72 s each: 10 % is 12 minutes
    const p = progress('train', 10_000, { now: () => clock });
    for (let d = 1; d <= 1000; d++) {
      clock += 720;
      p.update(d);
    }
  });
  // 720 s of work: the first report, then a line about every minute (the 10 % line is at 1,000)
  assert.ok(lines.length >= 12 && lines.length <= 14, lines.join(''));
  assert.match(lines[0] ?? '', /^train: 1\/10000 \(0%\) elapsed 0\.7s eta 1h59m\n$/);
  assert.match(lines[1] ?? '', /^train: 85\/10000 \(1%\) elapsed 1m01s eta 1h58m\n$/);
});

test('progress reads the ETA from the share of the work done when items differ in size', () => {
  let clock = 0;
  const lines = plainLines(() => {
    // 1 of 4 items done after 30 s, but it was 3/4 of the work: 10 s left, not 90 s
    const p = progress('benchmark', 4, { now: () => clock });
    clock = 30_000;
    p.update(1, '', 0.75);
    clock = 40_000;
    p.update(4, '', 1);
  });
  assert.match(lines[0] ?? '', /^benchmark: 1\/4 \(25%\) elapsed 30s eta 10s\n$/);
  assert.match(lines[1] ?? '', /^benchmark: 4\/4 \(100%\) elapsed 40s eta 0\.0s\n$/);
});
