/**
 * Fuzzing the LLM path in the test suite (a few hundred replies of a hostile OpenAI-compatible
 * endpoint, sizes bounded; `npm run fuzz -- --llm N` runs thousands through the CLI): every run
 * ends with its records or one fatal line, nothing else is thrown, nothing hangs, and every request
 * dialogym sends is one the real API takes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzLlm, type LlmFuzzStats } from './llm-endpoint.js';

const REPLIES = Number(process.env.DIALOGYM_FUZZ_LLM_REPLIES ?? 250);

function assertClean(s: LlmFuzzStats, what: string): void {
  assert.deepEqual(s.crashes.slice(0, 5), [], `${what}: ${s.crashes.length} crashes`);
  assert.equal(s.hangs, 0);
  assert.ok(s.replies >= REPLIES, `${what}: ${s.replies} replies`);
  // The draws must reach both outcomes, or the property tests nothing.
  assert.ok(s.episodes > 0 && Object.keys(s.failures).length >= 2, `${what}: ${JSON.stringify(s)}`);
}

test('fuzz: a hostile endpoint as the agent (--agent-llm): malformed, huge, slow, stalled, wrong types', async () => {
  const s = await fuzzLlm({ replies: REPLIES, seed: 1, user: false, maxPad: 200_000, maxReplyBytes: 65_536, timeoutMs: 400 });
  assertClean(s, 'agent');
  assert.ok((s.failures['llm error'] ?? 0) > 0 && (s.failures['unknown tool'] ?? 0) + (s.failures['bad arguments'] ?? 0) > 0, JSON.stringify(s.failures));
});

test('fuzz: a hostile endpoint as the user (--user-llm)', async () => {
  const s = await fuzzLlm({ replies: Math.ceil(REPLIES / 2), seed: 2, user: true, maxPad: 200_000, maxReplyBytes: 65_536, timeoutMs: 400 });
  assert.deepEqual(s.crashes.slice(0, 5), [], `${s.crashes.length} crashes`);
  assert.equal(s.hangs, 0);
  assert.ok((s.failures['user llm error'] ?? 0) > 0, JSON.stringify(s));
});
