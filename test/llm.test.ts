/**
 * The LLM agent end to end against the local OpenAI-compatible test server (test/llm-server.ts):
 * the mapping is faithful (the server's rule agents reach the in-process success, every request
 * valid, no replay mismatch), and `evaluate --agent-llm` is reproducible — the same transcripts at
 * any concurrency, replayed from `--cache` with the server gone, after a resume, through 429s —
 * and stops in one line when it must.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import '../src/index.js';
import { createAgent } from '../src/agents/registry.js';
import type { AgentTransport } from '../src/agents/agent.js';
import { checkSchema } from '../src/formats/schema.js';
import { llmTransport } from '../src/llm/agent.js';
import { llmSystemMessage } from '../src/llm/prompts.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { LlmClient } from '../src/llm/client/client.js';
import { oneLineError, type CliRun } from './cli.js';
import { cliAsync, withLlmServer } from './llm-server.js';
import { cliPath } from './shared-data.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-llm-'));
after(() => rmSync(dir, { recursive: true, force: true }));


/** Environment, episodes, and the in-process agent the server plays there (default: `rules`). */
const CASES: ReadonlyArray<[string, number, string?]> = [
  ['restaurant-task1-v1', 6],
  ['restaurant-task2-v1', 6],
  ['restaurant-task3-v1', 6],
  ['restaurant-task4-v1', 6],
  ['restaurant-task5-v1', 6],
  ['restaurant-task5-oov-v1', 4],
  ['dstc6-task5-tst4-v1', 4],
  ['dstc6-task3-tst1-v1', 4],
  ['airdialogue-v1', 16],
  ['infobot-medium-v1', 12, 'rule-soft'],
];

test('through --agent-llm the rule agents played by the server reach the in-process outcome of every episode; every request valid, tokens summed', async () => {
  await withLlmServer({}, async (server) => {
    for (const [env, episodes, agent = 'rules'] of CASES) {
      const client = new LlmClient({ model: 'test', baseUrl: server.url, maxRetries: 0 });
      const transport = llmTransport({ client, system: (req) => llmSystemMessage(req) });
      // Every reply the LLM agent gives is a reply of the published protocol schema.
      const checked: AgentTransport = {
        name: transport.name,
        connect: (lane) => {
          const inner = transport.connect(lane);
          return {
            send: async (req, ms) => {
              const reply = await inner.send(req, ms);
              assert.equal(checkSchema('agent-protocol', JSON.parse(JSON.stringify(reply)), '#/$defs/reply'), undefined);
              return reply;
            },
            close: () => inner.close(),
          };
        },
      };
      const viaLlm = await evaluate(env, checked, { episodes, concurrency: 3 });
      const inProcess = await evaluate(env, createAgent(agent), { episodes });
      assert.deepEqual(viaLlm.records.map((r) => [r.success, r.reward, r.turns, r.failure]), inProcess.records.map((r) => [r.success, r.reward, r.turns, r.failure]), env);
      const usage = viaLlm.summary.usage;
      assert.ok(usage && usage.requests === viaLlm.records.reduce((a, r) => a + r.turns, 0), `${env}: one request per agent turn`);
      assert.equal(usage.tokensIn, viaLlm.records.reduce((a, r) => a + (r.usage?.tokensIn ?? 0), 0));
      assert.equal(inProcess.summary.usage, undefined);
      assert.equal(inProcess.records[0]?.usage, undefined, 'records of agents that report no usage keep their keys');
    }
    assert.deepEqual(server.stats.rejected, []);
    assert.deepEqual(server.stats.mismatches, []);
    assert.ok(server.stats.answered > 300, String(server.stats.answered));
  });
});

const run = (url: string, ...more: string[]): string[] => ['evaluate', '--env', 'restaurant-task5-v1', '--agent-llm', 'test', '--llm-url', url, '--episodes', '8', '--json', ...more];
const summaryOf = (r: CliRun): Record<string, unknown> => {
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout) as Record<string, unknown>;
  delete s['llm'];
  return s;
};

test('evaluate --agent-llm: the same transcripts at concurrency 1 and 4, and replayed from --cache with the server gone', async () => {
  const cache = join(dir, 'cache');
  const [c1, c4] = [join(dir, 'c1.jsonl'), join(dir, 'c4.jsonl')];
  let first: Record<string, unknown> = {};
  await withLlmServer({}, async (server) => {
    first = summaryOf(await cliAsync(run(server.url, '--concurrency', '1', '--transcripts', c1, '--price-in', '2', '--price-out', '8')));
    const r4 = await cliAsync(run(server.url, '--concurrency', '4', '--transcripts', c4, '--cache', cache, '--price-in', '2', '--price-out', '8'));
    assert.deepEqual(summaryOf(r4), first);
  });
  assert.equal(readFileSync(c4, 'utf8'), readFileSync(c1, 'utf8'));
  assert.equal(first['success'], 1);
  const usage = first['usage'] as { tokensIn: number; tokensOut: number };
  assert.equal(first['cost'], Math.round(((usage.tokensIn * 2 + usage.tokensOut * 8) / 1e6) * 1e9) / 1e9);
  const line = JSON.parse(readFileSync(c1, 'utf8').split('\n')[0] as string) as { usage: { tokensIn: number; tokensOut: number }; cost: number };
  assert.equal(line.cost, Math.round(((line.usage.tokensIn * 2 + line.usage.tokensOut * 8) / 1e6) * 1e9) / 1e9);
  // The server is closed: every request comes from the cache.
  const replay = join(dir, 'replay.jsonl');
  const r = await cliAsync(['evaluate', '--env', 'restaurant-task5-v1', '--agent-llm', 'test', '--llm-url', 'http://127.0.0.1:9/v1', '--episodes', '8', '--json', '--concurrency', '2', '--transcripts', replay, '--cache', cache, '--price-in', '2', '--price-out', '8']);
  assert.equal(r.code, 0, r.stderr);
  const llm = (JSON.parse(r.stdout) as { llm: { sent: number; cacheHits: number } }).llm;
  assert.equal(llm.sent, 0);
  assert.ok(llm.cacheHits > 100);
  assert.equal(readFileSync(replay, 'utf8'), readFileSync(c1, 'utf8'));
});

test('evaluate --resume after an interruption (a cut last line): the same transcripts and summary as an uninterrupted run', async () => {
  await withLlmServer({}, async (server) => {
    const full = join(dir, 'full.jsonl');
    const whole = summaryOf(await cliAsync(run(server.url, '--transcripts', full)));
    const text = readFileSync(full, 'utf8');
    const lines = text.split('\n');
    const cut = join(dir, 'cut.jsonl');
    // Five finished episodes and half of the sixth, as a kill -9 during a write leaves it.
    writeFileSync(cut, lines.slice(0, 5).join('\n') + '\n' + (lines[5] as string).slice(0, 100));
    const before = server.stats.answered;
    const resumed = summaryOf(await cliAsync(run(server.url, '--resume', cut, '--concurrency', '3')));
    assert.deepEqual(resumed, whole);
    assert.equal(readFileSync(cut, 'utf8'), text);
    const playedAgain = server.stats.answered - before;
    const turnsLeft = lines.slice(5, 8).reduce((a, l) => a + (JSON.parse(l) as { turns: number }).turns, 0);
    assert.equal(playedAgain, turnsLeft, 'only the episodes not in the file are played');
    oneLineError(await cliAsync(run(server.url, '--resume', join(dir, 'none.jsonl'))), /--resume: .*none\.jsonl: no such file/, 2);
    writeFileSync(cut, lines.slice(0, 3).join('\n').replace('"env":"restaurant-task5-v1"', '"env":"restaurant-task1-v1"') + '\n');
    oneLineError(await cliAsync(run(server.url, '--resume', cut)), /is not of this run \(restaurant-task5-v1, 8 tasks × 1 trials from seed 1\)/, 2);
  });
});

test('a server answering 429 to every third request: retried after its retry-after-ms, no episode fails', async () => {
  await withLlmServer({ faults: (n) => (n % 3 === 0 ? { status: 429, retryAfterMs: 2, retryAfter: '1' } : undefined) }, async (server) => {
    const r = await cliAsync(run(server.url, '--transcripts', join(dir, 'r429.jsonl')));
    const s = JSON.parse(r.stdout) as { success: number; failures: object; llm: { retries: number } };
    assert.equal(s.success, 1, r.stderr);
    assert.deepEqual(s.failures, {});
    assert.ok(s.llm.retries > 30 && server.stats.requests === s.llm.retries + (s as unknown as { usage: { requests: number } }).usage.requests, JSON.stringify(s.llm));
  });
});

test('evaluate --agent-llm stops in one line: a refused key, a spent failure budget, no key for the OpenAI API', async () => {
  await withLlmServer({ faults: () => ({ status: 401 }) }, async (server) => {
    oneLineError(await cliAsync(run(server.url)), /HTTP 401: .* \(the API key comes from OPENAI_API_KEY or --llm-key-env\)$/, 1);
  });
  await withLlmServer({ faults: () => ({ status: 500 }) }, async (server) => {
    // Two episodes fail (`llm error`, the progress shows them), the third request ends the run.
    const r = await cliAsync(run(server.url, '--llm-retries', '0', '--llm-max-failures', '2'));
    assert.equal(r.code, 1);
    assert.match(r.stderr.trimEnd().split('\n').at(-1) as string, /^error: http:\/\/127\.0\.0\.1:\d+\/v1 \(model test\): 3 requests failed, more than the failure budget of 2; the last: HTTP 500: The server had an error/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(server.stats.requests, 3);
  });
  const env = { ...process.env };
  delete env['OPENAI_API_KEY'];
  oneLineError(await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'gpt-4o-mini', '--episodes', '1'], env), /the OpenAI API needs a key: set OPENAI_API_KEY/, 2);
  oneLineError(await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'm', '--llm-url', 'http://127.0.0.1:9/v1', '--llm-key-env', 'NO_SUCH_VAR_X'], env), /--llm-key-env: the environment variable NO_SUCH_VAR_X is not set/, 2);
  oneLineError(await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'm', '--llm-url', 'http://127.0.0.1:9/v1', '--llm-option', 'max_tokens']), /--llm-option: expected key=value, got 'max_tokens'/, 2);
});

test('dialogym agent --agent-llm --stdio: the same LLM agent as a process, its token use in the replies', async () => {
  await withLlmServer({}, async (server) => {
    const t = join(dir, 'stdio.jsonl');
    const agentCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} agent --agent-llm test --llm-url ${server.url} --stdio`;
    const r = await cliAsync(['evaluate', '--env', 'airdialogue-v1', '--agent-cmd', agentCmd, '--episodes', '6', '--json', '--transcripts', t]);
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as { success: number; usage: { requests: number } };
    assert.equal(s.success, 1);
    assert.equal(s.usage.requests, server.stats.answered);
    const rec = JSON.parse(readFileSync(t, 'utf8').split('\n')[0] as string) as { actions: unknown[]; usage: { requests: number } };
    assert.equal(rec.usage.requests, rec.actions.length);
  });
});
