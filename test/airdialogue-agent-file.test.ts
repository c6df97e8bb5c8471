import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/index.js'; // every testbed, loaded
import { createAgent } from '../src/agents/registry.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { writeModelFile } from '../src/formats/model-file.js';
import { agentPolicies } from '../src/testbeds/airdialogue/policies.js';
import { airdialogueAgents } from '../src/testbeds/airdialogue/agents.js';
import { synthesizeSplits, toLearned } from '../src/testbeds/airdialogue/learned/data.js';
import { Vocab } from '../src/testbeds/airdialogue/learned/tokens.js';
import { createAirModels, saveAirModels } from '../src/testbeds/airdialogue/learned/train.js';
import { learnedAgent } from '../src/testbeds/airdialogue/learned/policy.js';

test('an `airdialogue train` model file is an agent of the AirDialogue family, as `airdialogue selfplay --agent` reads it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-air-agent-'));
  try {
    const ls = synthesizeSplits({ train: 16, dev: 0, test: 0, seed: 3 }).train.map(toLearned);
    const vocab = Vocab.build(ls.flatMap((l) => [l.dialogue.tokens, l.intent.map((t) => t.word), ...l.flights.map((f) => f.map((t) => t.word)), [l.reservation.word]]));
    const models = createAirModels(vocab, { dim: 8, hidden: 16 }, 5);
    const file = join(dir, 'air.dgm');
    saveAirModels(file, models);
    // The same models as a named policy: the file must play the same episodes.
    agentPolicies.register('learned-under-test', 'the models of this test', learnedAgent(models));
    const byFile = await evaluate('airdialogue-v1', createAgent(file), { episodes: 4, seed: 2 });
    const byName = await evaluate('airdialogue-v1', createAgent('learned-under-test'), { episodes: 4, seed: 2 });
    assert.equal(byFile.records.length, 4);
    assert.ok(byFile.records.every((r) => r.failure !== 'agent error' && r.actions.length > 0), JSON.stringify(byFile.records.map((r) => r.failure)));
    assert.deepEqual(byFile.records.map((r) => r.actions), byName.records.map((r) => r.actions));
    // Another model's file is not this family's.
    const other = join(dir, 'other.dgm');
    writeModelFile(other, { model: 'tfidf', meta: {}, tensors: [] });
    assert.equal(airdialogueAgents.load(other, {}), undefined);
    assert.equal(airdialogueAgents.load(join(dir, 'none.dgm'), {}), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
