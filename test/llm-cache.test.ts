/**
 * The response cache and `--resume` trust nothing: a cache entry is checked as it is read (its
 * digest, key, shape) and every corruption is refused in the same one line naming the file; a
 * refused `--resume` leaves the transcripts file as it was; a resume may extend a run with more
 * episodes or trials, and the extended run is the fresh run of that size.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { responseDigest } from '../src/llm/client/cache.js';
import { oneLineError, type CliRun } from './cli.js';
import { cliAsync, startLlmTestServer, type LlmTestServer } from './llm-server.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-llm-cache-'));
let server: LlmTestServer;
before(async () => {
  server = await startLlmTestServer();
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...more: string[]): string[] => ['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'test', '--llm-url', server.url, '--json', ...more];

/** The cache files of `cache`, sorted. */
function entries(cache: string): string[] {
  return readdirSync(cache, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(cache, f));
}

test('a corrupt cache entry — edited response, no choices, no digest, not JSON, another key — is refused in the same one line naming the file; deleting it, as the line says, asks again', async () => {
  const cache = join(dir, 'cache');
  assert.equal((await cliAsync(run('--episodes', '2', '--cache', cache))).code, 0);
  const file = entries(cache)[0] as string;
  const good = readFileSync(file, 'utf8');
  const entry = JSON.parse(good) as { key: string; response: { choices: Array<{ message: { content: string } }> }; latencyMs: number; digest: string };
  const edited = structuredClone(entry);
  (edited.response.choices[0] as { message: { content: string } }).message.content = 'edited';
  const noChoices = { ...entry, response: { id: 'x' }, digest: responseDigest({ id: 'x' }) };
  const { digest: _, ...noDigest } = entry;
  const corruptions: ReadonlyArray<[string, string, RegExp]> = [
    ['edited response, key kept', JSON.stringify(edited), /the response does not match its digest/],
    ['a valid key and digest, no choices', JSON.stringify(noChoices), /the response has no choices\[0\]\.message object/],
    ['no digest', JSON.stringify(noDigest), /no digest/],
    ['not JSON', good.slice(0, 40), /invalid JSON/],
    ['another key', JSON.stringify({ ...entry, key: 'f'.repeat(64) }), /its key is not/],
  ];
  for (const [what, text, why] of corruptions) {
    writeFileSync(file, text);
    const r = await cliAsync(run('--episodes', '2', '--cache', cache));
    const line = new RegExp(`^error: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1: not a valid cache entry \\(.*\\); delete the file to ask the endpoint again$`);
    // Exit 1 as any bad data file; the progress lines of episodes played before it may come first.
    assert.equal(r.code, 1, what);
    const last = r.stderr.trimEnd().split('\n').at(-1) as string;
    assert.match(last, line, what);
    assert.match(last, why, what);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
  const sent = server.stats.requests;
  unlinkSync(file);
  const again = await cliAsync(run('--episodes', '2', '--cache', cache));
  assert.equal(again.code, 0, again.stderr);
  assert.equal(server.stats.requests, sent + 1, 'the deleted entry alone is asked again');
  assert.equal(readFileSync(file, 'utf8').replace(/"latencyMs":[\d.]+/, ''), good.replace(/"latencyMs":[\d.]+/, ''));
});

test('a refused --resume (another environment, other options, a record beyond the run) changes nothing in the file, its cut last line included', async () => {
  const full = join(dir, 'full.jsonl');
  assert.equal((await cliAsync(run('--episodes', '4', '--transcripts', full))).code, 0);
  const lines = readFileSync(full, 'utf8').split('\n');
  const cut = join(dir, 'cut.jsonl');
  const text = lines.slice(0, 3).join('\n') + '\n' + (lines[3] as string).slice(0, 50);
  writeFileSync(cut, text);
  oneLineError(await cliAsync(['evaluate', '--env', 'restaurant-task2-v1', '--agent-llm', 'test', '--llm-url', server.url, '--episodes', '4', '--resume', cut]), /is not of this run \(restaurant-task2-v1/, 2);
  assert.equal(readFileSync(cut, 'utf8'), text);
  oneLineError(await cliAsync(run('--episodes', '4', '--resume', cut, '--max-turns', '9')), /was played with no environment options, this run has environment options/, 2);
  assert.equal(readFileSync(cut, 'utf8'), text);
  oneLineError(await cliAsync(run('--episodes', '2', '--resume', cut)), /the record of episode 2, trial 0 .* is not of this run \(restaurant-task1-v1, 2 tasks × 1 trials from seed 1\)/, 2);
  assert.equal(readFileSync(cut, 'utf8'), text);
  // Accepted, it cuts the unfinished line and ends as the uninterrupted run.
  assert.equal((await cliAsync(run('--episodes', '4', '--resume', cut))).code, 0);
  assert.equal(readFileSync(cut, 'utf8'), readFileSync(full, 'utf8'));
});

test('--resume with more --episodes or --trials extends the run: the same file and summary as a fresh run of the larger size', async () => {
  const summary = (r: CliRun): unknown => {
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as Record<string, unknown>;
    delete s['llm'];
    return s;
  };
  const fresh = join(dir, 'fresh.jsonl');
  const want = summary(await cliAsync(run('--episodes', '6', '--trials', '2', '--transcripts', fresh)));
  const grown = join(dir, 'grown.jsonl');
  summary(await cliAsync(run('--episodes', '3', '--transcripts', grown)));
  summary(await cliAsync(run('--episodes', '6', '--resume', grown)));
  const before = server.stats.requests;
  assert.deepEqual(summary(await cliAsync(run('--episodes', '6', '--trials', '2', '--resume', grown, '--concurrency', '3'))), want);
  assert.equal(readFileSync(grown, 'utf8'), readFileSync(fresh, 'utf8'));
  const secondTrials = readFileSync(fresh, 'utf8').split('\n').filter((l) => l.includes('"trial":1'));
  assert.equal(server.stats.requests - before, secondTrials.reduce((n, l) => n + (JSON.parse(l) as { turns: number }).turns, 0), 'only the new trials are played');
});
