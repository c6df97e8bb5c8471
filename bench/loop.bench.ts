/**
 * The episode loop's overhead (issue 37): the same three workloads played by a baseline build and
 * by this one, in one run, after a warm-up run of each, `ROUNDS` alternating rounds, per CPU second of this process (the machine is shared), the ratio being the median of the rounds' after/before — episodes/s of `restaurant-task5-v2`
 * with the `rules` agent through `evaluate`, KB-InfoBot RL training steps/s (a short `rl-soft`
 * training: imitation then REINFORCE, no validation; steps = agent actions), AirDialogue self-play
 * dialogues/s (rule agent vs rule customer) — and the ratio after/before of each (≥ 0.95 wanted);
 * first the loop's own cost, on a trivial environment that does nothing per step (ns per turn of
 * `runEpisode` and of `evaluate`: no acceptance bound, a figure to set against a real step's cost).
 * Each workload's figures (summary, curve, report) must also be identical in both builds.
 *
 * The baseline is another build's `dist/` folder (e.g. a checkout of the commit before the loop,
 * built with `npx tsc -p .`), given as the first argument or `DIALOGYM_BEFORE`:
 * `node dist/bench/loop.bench.js ../before/dist`. Without one, the bench says so and stops.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROUNDS = 9;
const RESTAURANT_EPISODES = 300;
const RL = { agent: 'rl-soft', split: 'small', imitation: 300, episodes: 900, batch: 64, validateEvery: 0 } as const;
const AIR_DIALOGUES = 2000;

const beforeDir = process.argv[2] ?? process.env['DIALOGYM_BEFORE'];
if (beforeDir === undefined || !existsSync(resolve(beforeDir, 'src/index.js'))) {
  process.stdout.write(`loop bench: needs the baseline build's dist folder (argument or DIALOGYM_BEFORE), got ${beforeDir ?? 'none'}: skipped\n`);
  process.exit(0);
}

/** The three entry points of one build. */
interface Build {
  readonly name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly root: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly infobot: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly air: any;
}

async function load(name: string, dist: string): Promise<Build> {
  const at = (p: string): string => pathToFileURL(resolve(dist, p)).href;
  return { name, root: await import(at('src/index.js')), infobot: await import(at('src/testbeds/infobot/index.js')), air: await import(at('src/testbeds/airdialogue/index.js')) };
}

const here = new URL('..', import.meta.url).pathname;
const builds = [await load('before', beforeDir), await load('after', here)];

/** One timed run: units done per CPU second and the figures to compare. */
interface Run {
  readonly perSecond: number;
  readonly figures: string;
}

/** CPU seconds of this process (user + system) since `from`: the machine is shared, so wall time measures the load as much as the code; everything here runs on this one thread. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
}

/** A trivial environment (50 steps, nothing computed): what is left is the loop's own cost per turn. */
const TRIVIAL_TURNS = 50;
const TRIVIAL_EPISODES = 4000;
for (const b of builds) {
  b.root.envs.register('loop-bench-trivial-v0', 'loop bench: 50 empty steps', () => {
    let t = 0;
    return {
      id: 'loop-bench-trivial-v0',
      reset: () => ((t = 0), { obs: { t }, info: {} }),
      step: () => (t++, { obs: { t }, reward: 1, terminated: t >= TRIVIAL_TURNS, truncated: false, info: {} }),
      sampleAction: () => 'x',
    };
  });
}

const workloads: Array<{ name: string; unit: string; overhead?: true; run: (b: Build) => Promise<Run> | Run }> = [
  {
    name: `the loop alone, synchronous: runEpisode on a trivial ${TRIVIAL_TURNS}-step env, ${TRIVIAL_EPISODES} episodes`,
    unit: 'turns/s',
    overhead: true,
    run(b) {
      const env = b.root.make('loop-bench-trivial-v0');
      const t = process.cpuUsage();
      let reward = 0;
      for (let i = 0; i < TRIVIAL_EPISODES; i++) reward += b.root.runEpisode(env, () => 'x', { seed: i }).reward;
      return { perSecond: (TRIVIAL_EPISODES * TRIVIAL_TURNS) / cpuSince(t), figures: String(reward) };
    },
  },
  {
    name: `the loop alone, asynchronous: evaluate on a trivial ${TRIVIAL_TURNS}-step env, ${TRIVIAL_EPISODES / 4} episodes`,
    unit: 'turns/s',
    overhead: true,
    async run(b) {
      const t = process.cpuUsage();
      const r = await b.root.evaluate('loop-bench-trivial-v0', { act: () => 'x' }, { episodes: TRIVIAL_EPISODES / 4, seed: 0 });
      return { perSecond: ((TRIVIAL_EPISODES / 4) * TRIVIAL_TURNS) / cpuSince(t), figures: JSON.stringify(r) };
    },
  },
  {
    name: `restaurant-task5-v2, rules, evaluate ${RESTAURANT_EPISODES} episodes`,
    unit: 'episodes/s',
    async run(b) {
      const t = process.cpuUsage();
      const r = await b.root.evaluate('restaurant-task5-v2', b.root.createAgent('rules'), { episodes: RESTAURANT_EPISODES, seed: 0 });
      return { perSecond: RESTAURANT_EPISODES / cpuSince(t), figures: JSON.stringify(r) };
    },
  },
  {
    name: `KB-InfoBot rl-soft training on ${RL.split}, ${RL.imitation} imitation + ${RL.episodes} REINFORCE dialogs`,
    unit: 'steps/s',
    run(b) {
      const env = new b.infobot.InfoBotEnv({ split: RL.split });
      const t = process.cpuUsage();
      const r = b.infobot.trainRlPolicy({ ...RL, env });
      const s = cpuSince(t);
      let steps = 0;
      let before = 0;
      for (const p of r.curve as Array<{ episodes: number; turns: number }>) {
        steps += p.turns * (p.episodes - before);
        before = p.episodes;
      }
      return { perSecond: steps / s, figures: JSON.stringify(r.curve) };
    },
  },
  {
    name: `AirDialogue self-play, rules vs rules, ${AIR_DIALOGUES} dialogues`,
    unit: 'dialogues/s',
    run(b) {
      const t = process.cpuUsage();
      const r = b.air.selfPlay({ n: AIR_DIALOGUES, seed: 1 });
      return { perSecond: AIR_DIALOGUES / cpuSince(t), figures: JSON.stringify(r) };
    },
  },
];

process.stdout.write(`load average ${loadavg()[0]?.toFixed(2)}; before = ${resolve(beforeDir)}, after = ${here}; ${ROUNDS} alternating rounds, per CPU second\n`);
const median = (xs: readonly number[]): number => {
  const v = [...xs].sort((x, y) => x - y);
  const m = v.length >> 1;
  return v.length % 2 === 1 ? (v[m] as number) : ((v[m - 1] as number) + (v[m] as number)) / 2;
};
let ok = true;
for (const w of workloads) {
  const rates: Record<string, number[]> = { before: [], after: [] };
  const ratios: number[] = [];
  const figures = new Map<string, string>();
  for (const b of builds) await w.run(b); // warm-up (JIT, lazy loads), not timed
  for (let round = 0; round < ROUNDS; round++) {
    const got: Record<string, number> = {};
    for (const b of round % 2 === 0 ? builds : [...builds].reverse()) {
      const r = await w.run(b);
      got[b.name] = r.perSecond;
      (rates[b.name] as number[]).push(r.perSecond);
      figures.set(b.name, r.figures);
    }
    ratios.push((got['after'] as number) / (got['before'] as number));
  }
  const before = median(rates['before'] as number[]);
  const after = median(rates['after'] as number[]);
  const ratio = median(ratios);
  const same = figures.get('before') === figures.get('after');
  if (!same || (!w.overhead && ratio < 0.95)) ok = false;
  if (w.overhead) {
    // No work per step: the figure is the loop's own cost per turn, to set against a real step's (microseconds).
    process.stdout.write(`${w.name}: before ${(1e9 / before).toFixed(1)} ns/turn, after ${(1e9 / after).toFixed(1)} ns/turn (${(1e9 / after - 1e9 / before).toFixed(1)} ns more per turn); figures ${same ? 'identical' : 'DIFFERENT'}\n`);
    continue;
  }
  process.stdout.write(`${w.name}: before ${before.toFixed(1)} ${w.unit}, after ${after.toFixed(1)} ${w.unit} (medians), ratio ${ratio.toFixed(3)} (median of the ${ROUNDS} rounds' after/before); figures ${same ? 'identical' : 'DIFFERENT'}\n`);
}
process.exit(ok ? 0 : 1);
