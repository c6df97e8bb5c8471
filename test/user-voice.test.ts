/** A voice for the simulated user through the runner: the agent reads its words, the environment judges as before. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../src/index.js'; // every testbed, loaded
import { createAgent } from '../src/agents/registry.js';
import type { Agent } from '../src/agents/agent.js';
import { evaluate, type EpisodeRecord } from '../src/evaluation/evaluate.js';
import type { UserTurn, UserVoice } from '../src/agents/user-voice.js';

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

const r0Of = (r: { records: EpisodeRecord[] }): EpisodeRecord => r.records[0]!;

test('a user voice on KB-InfoBot (an observation with the last utterance only): every user turn is voiced, the record keeps the words (userWords), and the export replays the acts with those words', async () => {
  await import('../src/testbeds/infobot/index.js');
  const { infoBotDataset, readInfoBotDialogs } = await import('../src/testbeds/infobot/export.js');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const asked: UserTurn[] = [];
  const voice: UserVoice = { name: 'loud', connect: () => ({ say: async (t) => (asked.push(t), { text: `${t.template.toUpperCase()}!` }) }) };
  const seen: string[] = [];
  const inner = createAgent('rule-soft');
  const agent: Agent = { act: (req) => (seen.push((req.observation as { utterance: string }).utterance), inner.act(req)) };
  const plain = await evaluate('infobot-medium-v1', createAgent('rule-soft'), { episodes: 4 });
  const voiced = await evaluate('infobot-medium-v1', agent, { episodes: 4, userVoice: voice });
  assert.deepEqual(voiced.records.map((r) => [r.success, r.turns]), plain.records.map((r) => [r.success, r.turns]), 'the environment decides and judges as before');
  assert.equal(asked.length, voiced.records.reduce((n, r) => n + r.turns, 0), 'the opening and one user turn per agent action but the last (the line after the end is not asked for)');
  // The closing line after the end (KB-InfoBot's "thanks, that is the one") is the environment's, never the voice's: '' in userWords and in the record's last utterance.
  assert.notEqual((r0Of(plain).observation as { utterance: string }).utterance, '', 'the environment has a closing line');
  for (const r of voiced.records) {
    assert.equal(r.userWords?.at(-1), '', `episode ${r.episode}: userWords ends with what the voice said after the end: nothing`);
    assert.ok(r.userWords!.slice(0, -1).every((w) => w.endsWith('!')), `episode ${r.episode}: every other entry is the voice's`);
  }
  assert.ok(seen.length > 0 && seen.every((u) => u.endsWith('!')), 'the agent reads the voice\'s words');
  const r0 = voiced.records[0]!;
  assert.equal(r0.userWords?.length, r0.turns + 1);
  assert.equal((r0.observation as { utterance: string }).utterance, r0.userWords?.at(-1));
  assert.equal(plain.records[0]?.userWords, undefined);
  assert.ok(asked[1]?.history.some((t) => t.speaker === 'bot'), 'the voice is told what the agent did');
  const out = mkdtempSync(join(tmpdir(), 'dialogym-voice-'));
  const w = infoBotDataset.write(voiced.records.map((episode, i) => ({ where: `v.jsonl:${i + 1}`, episode })), out);
  const dialogs = readInfoBotDialogs(w.files[0]!);
  assert.equal(dialogs.length, 4);
  assert.deepEqual(dialogs[0]!.turns.filter((t) => t.speaker === 'user').map((t) => (t.speaker === 'user' ? t.text : '')), r0.userWords);
  assert.ok(dialogs.every((d) => (d.turns.at(-1) as { text?: string }).text === ''), 'the exported dialogs put no closing words in the voice\'s mouth');
  assert.throws(() => infoBotDataset.write([{ where: 'v.jsonl:1', episode: { ...r0, userWords: r0.userWords!.slice(1) } }], out), /v\.jsonl:1: userWords has \d+ turns, the episode \d+ user turns/);
});
