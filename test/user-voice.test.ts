/** A voice for the simulated user through the runner: the agent reads its words, the environment judges as before. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../src/index.js'; // every testbed, loaded
import { createAgent } from '../src/agents/registry.js';
import type { Agent } from '../src/agents/agent.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import type { UserTurn, UserVoice } from '../src/evaluation/user-voice.js';

test('a user voice: the agent reads the voice\'s words (silences kept), the env judges as before, the voice\'s tokens are in the records', async () => {
  const asked: UserTurn[] = [];
  const voice: UserVoice = {
    name: 'loud',
    connect: () => ({
      say: async (turn) => {
        asked.push(turn);
        return { text: turn.template.toUpperCase(), usage: { requests: 1, tokensIn: 10, tokensOut: 2 } };
      },
    }),
  };
  const seen: string[] = [];
  const rules = createAgent('rules');
  const agent: Agent = {
    act: (req) => {
      seen.push((req.observation as { utterance: string }).utterance);
      return rules.act(req);
    },
  };
  const plain = await evaluate('restaurant-task5-v1', createAgent('rules'), { episodes: 3 });
  const voiced = await evaluate('restaurant-task5-v1', agent, { episodes: 3, userVoice: voice });
  assert.deepEqual(voiced.records.map((r) => r.success), plain.records.map((r) => r.success));
  assert.ok(seen.some((u) => /^[A-Z ]+$/.test(u) && u.length > 10));
  assert.ok(seen.includes('<SILENCE>'), 'silences are not voiced');
  assert.ok(asked.every((t) => t.template !== '<SILENCE>'));
  const ks = asked.filter((t) => t.episode === 0).map((t) => t.turn);
  assert.ok(ks[0] === 0 && ks.every((k, i) => i === 0 || k > (ks[i - 1] as number)), `user turns (silences not asked): ${ks.join(' ')}`);
  const last = voiced.records[0]?.observation as { history: Array<{ speaker: string; text: string }> };
  const users = last.history.filter((t) => t.speaker === 'user').map((t) => t.text);
  assert.ok(users.every((u) => u === u.toUpperCase()), users.join(' | '));
  const turns = asked.filter((t) => t.episode === 0).length;
  assert.deepEqual(voiced.records[0]?.userUsage, { requests: turns, tokensIn: 10 * turns, tokensOut: 2 * turns });
  assert.equal(voiced.summary.userUsage?.requests, asked.length);
  assert.equal(plain.records[0]?.userUsage, undefined);
});
