/**
 * Why REINFORCE lengthens KB-InfoBot dialogs (issue 40): trains one RL policy with `trainRlPolicy`
 * and prints, at every validation, the greedy and the sampled policy's T / S / R on the validation
 * dialogs, beside the imitated expert's; then the kept policy on fresh dialogs.
 *
 *   node dist/bench/infobot-diagnose.bench.js <agent> <split> [episodes] [key=value options of RlTrainOptions …]
 */
import { InfoBotEnv } from '../src/testbeds/infobot/env.js';
import { agentContext, runInfoBotEpisode, summarize, type EpisodeResult } from '../src/testbeds/infobot/episodes.js';
import { rlTrainOptions, trainRlPolicy, usualKnownSlots, validationSeed, type RlTrainOptions } from '../src/testbeds/infobot/agents/reinforce.js';
import { RL_UPDATE, RlAgent, rlAccess, type RlAgentName } from '../src/testbeds/infobot/agents/rl-agent.js';
import { RuleAgent, type KbAccess } from '../src/testbeds/infobot/agents/rule-agents.js';
import type { InfoBotAgent } from '../src/testbeds/infobot/agents/agent.js';
import type { PolicyNet } from '../src/testbeds/infobot/agents/policy-net.js';
import type { SplitName } from '../src/testbeds/infobot/slots.js';
import { episodeSeed } from '../src/testbeds/infobot/env.js';
import { processDone } from '../src/core/exit.js';

const agentName = (process.argv[2] ?? 'rl-nokb') as RlAgentName;
const split = (process.argv[3] ?? 'small') as SplitName;
const episodes = Number(process.argv[4] ?? 100_000);
const extra: Record<string, unknown> = {};
for (const kv of process.argv.slice(5)) {
  const [k, v] = kv.split('=') as [string, string];
  extra[k] = v === 'Infinity' ? Infinity : Number.isNaN(Number(v)) ? v : Number(v);
}
const env = new InfoBotEnv({ split });
const ctx = agentContext(env);
const access = rlAccess(agentName) as KbAccess;
const opts: RlTrainOptions = { agent: agentName, split, episodes, env, ...extra };
const o = rlTrainOptions(opts);
const fig = (rs: EpisodeResult[]): string => {
  const s = summarize('', split, rs);
  return `T ${s.turns.toFixed(2)} S ${s.success.toFixed(2)} R ${s.reward.toFixed(3)}`;
};
const play = (agent: InfoBotAgent, n: number, seed: (i: number) => number): EpisodeResult[] => Array.from({ length: n }, (_, i) => runInfoBotEpisode(env, agent, false, seed(i)));
const V = o.validationEpisodes;
const heard = o.expertInformAfterHeard === 'usual' ? usualKnownSlots(env) : o.expertInformAfterHeard;
const expert = new RuleAgent(ctx, o.expertAccess, { informAfterHeard: heard });
process.stdout.write(`${agentName} ${split} ${JSON.stringify(extra)}\nexpert (heard ${heard}) validation ${fig(play(expert, V, validationSeed))}; fresh 3000 (eval seed 1) ${fig(play(expert, 3000, (i) => episodeSeed(1, i)))}\n`);
const probe = (net: PolicyNet, mode: 'greedy' | 'sample', n: number, seed: (i: number) => number): EpisodeResult[] => play(new RlAgent(ctx, access, net, { mode, hardCount: o.hardCount, update: RL_UPDATE[split][access] }), n, seed);
let last = '';
const t0 = process.cpuUsage();
const r = trainRlPolicy({
  ...opts,
  onBatch(p, net) {
    if (p.validReward === undefined) return;
    const g = fig(probe(net, 'greedy', V, validationSeed));
    const s = fig(probe(net, 'sample', V, validationSeed));
    last = `${p.phase} ${p.episodes}: batch(sampled) T ${p.turns.toFixed(2)} R ${p.reward.toFixed(3)} | valid greedy ${g} | valid sampled ${s}`;
    process.stdout.write(last + '\n');
  },
});
const cpu = process.cpuUsage(t0);
process.stdout.write(`kept: best valid ${r.bestValidReward.toFixed(3)} at ${r.bestEpisodes}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s\n`);
for (const seed of [1, 7]) process.stdout.write(`kept, eval seed ${seed}, 3000: greedy ${fig(probe(r.net, 'greedy', 3000, (i) => episodeSeed(seed, i)))} | sampled ${fig(probe(r.net, 'sample', 3000, (i) => episodeSeed(seed, i)))}\n`);
processDone();
