/**
 * A misbehaving OpenAI-compatible endpoint (test/llm-server.ts with faults) cannot crash, hang or
 * fool `evaluate --agent-llm` / `--user-llm`: every reply shape is an outcome of its episode, the
 * timeout covers the whole body, a huge reply is refused at the size limit as it streams in, a
 * hopeless endpoint stops the run in one line, and the tokens of refused replies are counted.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import '../src/index.js';
import { llmTransport } from '../src/llm/agent.js';
import { createAgent } from '../src/agents/registry.js';
import { llmSystemMessage, llmUserPrompt, llmUserSystemMessage } from '../src/llm/prompts.js';
import { llmUserVoice } from '../src/llm/user.js';
import { evaluate, type EpisodeRecord } from '../src/evaluation/evaluate.js';
import { LlmClient, LlmError } from '../src/llm/client/client.js';
import { oneLineError } from './cli.js';
import { cliAsync, withLlmServer, type Fault, type Json } from './llm-server.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-llm-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));


type Message = Json & { tool_calls?: Json[] };
const messageOf = (c: Json): Message => ((c['choices'] as Json[])[0] as Json)['message'] as Message;
/** The completion with its message changed by `f` (applied to tool-call replies when `calls`, else to text replies). */
function reshape(calls: boolean, f: (m: Message) => unknown): Fault['mutate'] {
  return (c) => {
    const m = messageOf(c);
    if ((m.tool_calls !== undefined) !== calls) return c;
    const choice = (c['choices'] as Json[])[0] as Json;
    return { ...c, choices: [{ ...choice, message: f(m) }] };
  };
}
const firstCall = (m: Message, f: (call: Json) => unknown): Message => ({ ...m, tool_calls: [f(m.tool_calls?.[0] as Json) as Json] });
const fn = (call: Json): Json => call['function'] as Json;

/** Reply shapes the API allows or real servers send, and the outcome of each episode. */
const SHAPES: ReadonlyArray<[string, Fault['mutate'], string | null]> = [
  ['arguments as a JSON object', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), arguments: JSON.parse(fn(c)['arguments'] as string) } }))), null],
  ['content as a list of text parts', reshape(false, (m) => ({ ...m, content: [{ type: 'text', text: m['content'] }] })), null],
  ['no type on the tool call', reshape(true, (m) => firstCall(m, (c) => ({ id: c['id'], function: c['function'] }))), null],
  ['finish_reason a number, usage of strings', (c) => ({ ...c, usage: { prompt_tokens: '9', completion_tokens: null }, choices: [{ ...((c['choices'] as Json[])[0] as Json), finish_reason: 7 }] }), null],
  ['a tool call without function', reshape(true, (m) => firstCall(m, (c) => ({ id: c['id'], type: 'function' }))), 'unknown tool'],
  ['a null function name', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), name: null } }))), 'unknown tool'],
  ['a function name that is a number', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), name: 7 } }))), 'unknown tool'],
  ['a tool call that is null', reshape(true, (m) => ({ ...m, tool_calls: [null] })), 'unknown tool'],
  ['a tool of another type', reshape(true, (m) => firstCall(m, (c) => ({ ...c, type: 'custom' }))), 'unknown tool'],
  ['arguments a number', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), arguments: 7 } }))), 'bad arguments'],
  ['arguments a list', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), arguments: [1] } }))), 'bad arguments'],
  ['tool_calls an object', reshape(true, (m) => ({ ...m, tool_calls: m.tool_calls?.[0] })), 'bad arguments'],
  ['content a number', reshape(false, (m) => ({ ...m, content: 7 })), 'no action'],
  ['refusal a number, no content', reshape(false, (m) => ({ ...m, content: null, refusal: 3 })), 'no action'],
  ['the message a string', reshape(false, () => 'hello'), 'llm error'],
  ['no choices', (c) => ({ ...c, choices: [] }), 'llm error'],
  ['choices an object', (c) => ({ ...c, choices: (c['choices'] as Json[])[0] }), 'llm error'],
  ['a JSON list as the body', () => [1, 2], 'llm error'],
  ['null as the body', () => null, 'llm error'],
  ['arguments nested 300 levels', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), arguments: JSON.parse('{"a":'.repeat(300) + '1' + '}'.repeat(300)) } }))), 'llm error'],
  ['arguments nested 100 levels', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), arguments: '{"a":'.repeat(100) + '1' + '}'.repeat(100) } }))), 'invalid json'],
];

const transportOf = (url: string, o: Partial<ConstructorParameters<typeof LlmClient>[0]> = {}) => llmTransport({ client: new LlmClient({ model: 'test', baseUrl: url, maxRetries: 0, ...o }), system: (req) => llmSystemMessage(req) });

test('every reply shape is an outcome of its episode, never a crash: the run goes on (arguments as an object are taken as they are)', async () => {
  for (const [what, mutate, want] of SHAPES) {
    await withLlmServer({ faults: () => ({ mutate }) }, async (server) => {
      const { records } = await evaluate('restaurant-task1-v1', transportOf(server.url), { episodes: 3 });
      assert.equal(records.length, 3, what);
      for (const r of records) assert.equal(r.failure, want, `${what}: ${r.message ?? ''}`);
      // The arguments sent back in the conversation are a JSON string, as the API wants them.
      assert.deepEqual(server.stats.rejected, [], what);
    });
  }
});

test('evaluate --agent-llm: arguments as an object → the episodes succeed; a tool call without function → `unknown tool`; exit 0 both', async () => {
  await withLlmServer({ faults: () => ({ mutate: SHAPES[0]?.[1] }) }, async (server) => {
    const r = await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'test', '--llm-url', server.url, '--episodes', '3', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { success: number }).success, 1);
  });
  await withLlmServer({ faults: () => ({ mutate: SHAPES[4]?.[1] }) }, async (server) => {
    const r = await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'test', '--llm-url', server.url, '--episodes', '3', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { failures: object }).failures, { 'unknown tool': 3 });
  });
});

test('the tokens of a reply refused as an unknown tool, a null name or too deep are counted', async () => {
  const cases: ReadonlyArray<[string, Fault['mutate'], string]> = [
    ['unknown tool', reshape(true, (m) => firstCall(m, (c) => ({ ...c, function: { ...fn(c), name: 'no_such_tool' } }))), 'unknown tool'],
    ['null name', SHAPES[5]?.[1], 'unknown tool'],
    ['too deep', SHAPES[20]?.[1], 'invalid json'],
  ];
  for (const [what, mutate, reason] of cases) {
    await withLlmServer({ faults: () => ({ mutate }) }, async (server) => {
      const { records, summary } = await evaluate('restaurant-task1-v1', transportOf(server.url), { episodes: 2 });
      for (const r of records) {
        assert.equal(r.failure, reason, what);
        // Every request of the episode was answered and counted, the refused one included.
        assert.equal(r.usage?.requests, r.turns + 1, `${what}: ${JSON.stringify(r.usage)}`);
      }
      assert.equal(summary.usage?.requests, server.stats.answered, what);
    });
  }
});

/** The episode records of a transcripts file. */
const recordsOf = (file: string): EpisodeRecord[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as EpisodeRecord);

test('--llm-timeout covers the whole body: a body trickled a byte a second, and headers then silence, fail the episode as `llm error` and the run goes on', async () => {
  for (const [what, fault] of [
    ['trickled body', { trickleMs: 1000 }],
    ['headers then silence', { stall: true }],
  ] as const) {
    await withLlmServer({ faults: () => fault }, async (server) => {
      const t = join(dir, 'timeout.jsonl');
      const r = await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'test', '--llm-url', server.url, '--llm-timeout', '1500', '--llm-retries', '0', '--episodes', '2', '--transcripts', t]);
      assert.equal(r.code, 0, `${what}: ${r.stderr}`);
      const recs = recordsOf(t);
      assert.deepEqual(recs.map((x) => x.failure), ['llm error', 'llm error'], what);
      assert.match(recs[0]?.message ?? '', /no whole reply within 1500 ms/);
      assert.ok(r.ms < 60_000, `${what}: ${r.ms} ms`); // a guard, not a timing: before, the trickle ran for minutes
    });
  }
});

test('a 50 MB content is refused at --llm-max-reply-bytes as it streams in: `llm error` (agent) / `user llm error` (user), the run goes on', async () => {
  await withLlmServer({ faults: () => ({ padBytes: 50_000_000 }) }, async (server) => {
    const t = join(dir, 'huge.jsonl');
    const r = await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'test', '--llm-url', server.url, '--llm-retries', '0', '--episodes', '2', '--transcripts', t, '--llm-max-reply-bytes', '1000000']);
    assert.equal(r.code, 0, r.stderr);
    const recs = recordsOf(t);
    assert.deepEqual(recs.map((x) => x.failure), ['llm error', 'llm error']);
    assert.match(recs[0]?.message ?? '', /the response is longer than 1000000 bytes \(maxReplyBytes\)/);
    // The client hung up at the limit: the server could not write the 50 MB (socket buffers aside).
    assert.ok(server.stats.bytesSent < 2 * 16_000_000, String(server.stats.bytesSent));
  });
  await withLlmServer({ faults: () => ({ padBytes: 50_000_000 }) }, async (server) => {
    const t = join(dir, 'huge-user.jsonl');
    const r = await cliAsync(['evaluate', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--user-llm', 'test', '--llm-url', server.url, '--llm-retries', '0', '--episodes', '2', '--transcripts', t]);
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(t, 'utf8');
    assert.ok(text.length < 100_000, String(text.length));
    assert.deepEqual(recordsOf(t).map((x) => x.failure), ['user llm error', 'user llm error']);
  });
});

test('an endpoint that never answers (500 forever, with the default retries) stops the run in one line after its first 5 attempts', async () => {
  await withLlmServer({ faults: () => ({ status: 500 }) }, async (server) => {
    const r = await cliAsync(['evaluate', '--env', 'restaurant-task1-v1', '--agent-llm', 'test', '--llm-url', server.url, '--episodes', '100']);
    oneLineError(r, /^error: http:\/\/127\.0\.0\.1:\d+\/v1 \(model test\): the endpoint has not answered once: its first 5 attempts all failed, the last: HTTP 500: The server had an error/, 1);
    assert.equal(server.stats.requests, 5);
    assert.ok(r.ms < 60_000, `${r.ms} ms`); // a guard: before, 100 episodes took ~41 min to stop
  });
});

test('the same for an HTML page with 200, at any concurrency; 429s and 503s before the first answer are not counted', async () => {
  const sleep = async (): Promise<void> => {};
  await withLlmServer({ faults: () => ({ raw: { body: '<!DOCTYPE html><html><body>Bad gateway</body></html>' } }) }, async (server) => {
    const t = transportOf(server.url, { maxRetries: 10, sleep });
    await assert.rejects(evaluate('restaurant-task1-v1', t, { episodes: 20, concurrency: 4 }), (e: unknown) => e instanceof LlmError && e.fatal && /has not answered once: its first 5 attempts all failed, the last: the response is not JSON: "<!DOCTYPE html><html><body>Bad gateway<\/body><\/html>"$/.test(e.message));
    assert.ok(server.stats.requests <= 8, String(server.stats.requests));
  });
  await withLlmServer({ faults: (n) => (n <= 8 ? { status: n % 2 ? 429 : 503 } : undefined) }, async (server) => {
    const { summary } = await evaluate('restaurant-task1-v1', transportOf(server.url, { maxRetries: 10, sleep }), { episodes: 2 });
    assert.equal(summary.success, 1);
  });
});

test('the tokens of a user reply without text (`user llm error`) are counted', async () => {
  await withLlmServer({ faults: (n) => (n === 2 ? { mutate: reshape(false, (m) => ({ ...m, content: [{ type: 'image_url' }] })) } : undefined) }, async (server) => {
    const client = new LlmClient({ model: 'test', baseUrl: server.url, maxRetries: 0 });
    const userVoice = llmUserVoice({ client, system: (t) => llmUserSystemMessage(t), prompt: (t) => llmUserPrompt(t) });
    const { records, summary } = await evaluate('restaurant-task5-v2', createAgent('rules'), { episodes: 1, userVoice });
    assert.equal(records[0]?.failure, 'user llm error');
    assert.match(records[0]?.message ?? '', /the user model's reply has no text/);
    assert.equal(records[0]?.userUsage?.requests, 2, JSON.stringify(records[0]?.userUsage));
    assert.equal(summary.userUsage?.requests, server.stats.answered);
  });
});
