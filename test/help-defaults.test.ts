/**
 * Defaults that `--help` states in text (because they depend on something, e.g. the agent or the
 * set) come from the constants the code uses, not from a copy: `infobot train` the trainers',
 * `generate dstc6 --dialogs` the sets'. A generic verb states no testbed's default: `evaluate
 * --max-turns` says the environment's own limit, whatever the testbed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { e2eTrainOptions, rlTrainOptions } from '../src/testbeds/infobot/index.js';
import { SET_SPECS } from '../src/testbeds/dstc6/sim-dataset.js';

async function described(path: readonly string[], flag: string): Promise<string> {
  let c: Command = await buildProgram();
  for (const name of path) c = c.commands.find((s) => s.name() === name) as Command;
  const opt = c.options.find((o) => o.long === flag);
  assert.ok(opt, `${path.join(' ')} ${flag}`);
  return c.createHelp().optionDescription(opt);
}

test('defaults stated as text in --help are the constants the code uses', async () => {
  const maxTurns = await described(['evaluate'], '--max-turns');
  assert.ok(maxTurns.endsWith("(default: the environment's own limit; none for an environment without one)"), maxTurns);
  assert.doesNotMatch(maxTurns, /\d|restaurant|dstc6|infobot|airdialogue|babi/i, 'the generic verb names no testbed and no testbed constant');
  const rl = rlTrainOptions({ agent: 'rl-soft', split: 'medium' });
  const e2e = e2eTrainOptions({ split: 'medium' });
  assert.ok((await described(['infobot', 'train'], '--episodes')).endsWith(`(default: ${rl.episodes} for rl-*, ${e2e.episodes} for e2e-soft)`));
  assert.ok((await described(['infobot', 'train'], '--batch')).endsWith(`(default: ${rl.batch} for rl-*, ${e2e.batch} for e2e-soft)`));
  assert.ok((await described(['infobot', 'train'], '--validation-episodes')).endsWith(`(default: ${e2e.validationEpisodes})`));
  assert.ok((await described(['infobot', 'train'], '--temperatures')).endsWith(`(default: ${e2e.temperatures.join(',')})`));
  assert.ok((await described(['generate', 'dstc6'], '--dialogs')).endsWith(`(default: ${SET_SPECS.trn.examples} for trn, ${SET_SPECS.tst1.examples} for tst sets)`));
});
