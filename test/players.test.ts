/**
 * One registry of players (issue 37, item 2): the built-in players of every family are the tables
 * of `players`, keyed by family and name; the testbeds' public tables (`infobotAgents`,
 * `agentPolicies`, `customerPolicies`) are those tables, and the `agents` registry lists the same
 * names. The generic rankers are the registry's own (`RANKER_MODELS`); the restaurant testbed's
 * descriptor declares its models beside them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agents, players } from '../src/agents/registry.js';
import { loadTestbeds } from '../src/testbeds/index.js';
import { infobotAgents } from '../src/testbeds/infobot/agents/agent.js';
import { agentPolicies, customerPolicies } from '../src/testbeds/airdialogue/policies.js';
import { RANKER_MODELS } from '../src/rankers/builtin.js';
import { models } from '../src/rankers/registry.js';

test('every built-in player is reached through players by family and name', async () => {
  await loadTestbeds();
  assert.equal(players.table('infobot', 'infobot agent'), infobotAgents);
  assert.equal(players.table('airdialogue', 'agent policy'), agentPolicies);
  assert.equal(players.table('airdialogue', 'customer policy', 'customer'), customerPolicies);
  assert.deepEqual(players.names('infobot'), ['e2e-soft', 'max', 'rl-hard', 'rl-nokb', 'rl-soft', 'rule-hard', 'rule-nokb', 'rule-soft']);
  assert.deepEqual(players.names('airdialogue', 'customer'), ['lexicon', 'rules']);
  assert.deepEqual(agents.get('infobot').names(), players.names('infobot'));
  assert.deepEqual(agents.get('airdialogue').names(), players.names('airdialogue'));
  assert.equal(players.get('airdialogue', 'rules'), agentPolicies.get('rules'));
  assert.deepEqual(players.families(), ['airdialogue', 'airdialogue/customer', 'infobot', 'restaurant']);
  assert.equal(players.table('restaurant', 'model'), models);
  assert.equal(players.get('restaurant', 'hcn'), models.get('hcn'));
  assert.throws(() => players.adopt('infobot', models), /^ConfigError: player family 'infobot' has a table already$/);
  assert.throws(() => players.get('infobot', 'nobody'), /^ConfigError: unknown infobot agent 'nobody' \(known: e2e-soft, max, /);
  assert.throws(() => players.get('chess', 'rules'), /unknown player family 'chess' \(families: airdialogue, airdialogue\/customer, infobot, restaurant\)/);
});

test("the generic rankers are the registry's own; the restaurant testbed declares its models beside them", async () => {
  await loadTestbeds(['restaurant']);
  for (const n of ['rules', 'rules-dstc2', 'hcn']) assert.ok(models.has(n), n);
  const names = RANKER_MODELS.map((d) => d.name);
  assert.deepEqual(names.slice(0, 3), ['tfidf', 'tfidf+type', 'tfidf+type-word']);
  for (const n of names) assert.ok(models.has(n), n);
  assert.equal(models.get('tfidf'), RANKER_MODELS[0]?.entry);
});
