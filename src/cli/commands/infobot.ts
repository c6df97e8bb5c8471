/**
 * `dialogym infobot …` — the KB-InfoBot movie-search testbed: kb (generate the KB files), eval (an
 * agent against the user simulator), table (Table 2 and the NLG-temperature sweep), chat (play the
 * user), train (an RL policy: imitation then REINFORCE), agents (list the agent names).
 */
import { Option, type Command } from 'commander';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { ConfigError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { createRng } from '../../core/rng.js';
import {
  ChatSession,
  DEFAULT_MISSING,
  InfoBotEnv,
  SPLITS,
  createInfoBotAgent,
  describeGoal,
  formatKbTsv,
  infobotAgents,
  infobotTable,
  infobotTableOnWorkers,
  type TableOptions,
  infobotLatex,
  infobotSvg,
  isPolicyFile,
  kbFileNames,
  defaultPolicyFile,
  learningCurveSvg,
  RL_AGENTS,
  rlTrainOptions,
  e2eTrainOptions,
  saveE2e,
  loadE2e,
  trainE2e,
  savePolicy,
  trainRlPolicy,
  type RlAgentName,
  type HardCountInput,
  type CurvePoint,
  splitKbs,
  splitSpec,
  type SplitKbs,
  type SplitName,
  type EvalReport,
  type TableRow,
} from '../../testbeds/infobot/index.js';
import { runVerb, shardOptions, type ShardFlags, type VerbRun } from '../shard.js';
import { infobotEvalRun, MIN_PARALLEL_EPISODES, type InfobotEvalOptions } from '../../testbeds/infobot/runs/eval.js';
import { chosenKbs } from '../../testbeds/infobot/kb-choice.js';
import { locateDefaultPolicy, userPolicyDir } from '../../testbeds/infobot/agents/policy-file.js';
import { progress } from '../progress.js';
import { action, alias, floatFlag, intFlag, out, outFileFlag, outFolderFlag } from '../run.js';
import { SUMMARY } from './summaries.js';

const TABLE_AGENTS = ['rule-nokb', 'rule-hard', 'rule-soft', 'max'];
/** Agents `infobot train` can train. */
const TRAINABLE = [...RL_AGENTS, 'e2e-soft'] as const;
/** The trainers' defaults, shown by `infobot train --help` and used when a flag is not given. */
const RL_DEFAULTS = rlTrainOptions({ agent: 'rl-soft', split: 'medium' });
const E2E_DEFAULTS = e2eTrainOptions({ split: 'medium' });
type Trainable = (typeof TRAINABLE)[number];

/** Default folder of trained policies: `policies/infobot/` in the package (override: $DIALOGYM_POLICIES). */


function splitFlag(v: string): SplitName {
  return splitSpec(v).name;
}

function listFlag<T>(name: string, parse: (s: string) => T): (v: string) => T[] {
  return (v: string) => {
    const parts = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (parts.length === 0) throw new ConfigError(`${name}: expected a comma-separated list`);
    return parts.map(parse);
  };
}

interface KbFlags {
  /** Undefined until loadKbs: from --split, else the --kb folder, else medium. */
  split?: SplitName;
  kbSeed: number;
  kb?: string;
  missing: number;
}

/** The KBs, generated or read from --kb (whose folder gives the split: o.split is set). */
function loadKbs(o: KbFlags): SplitKbs {
  const { kbs, split } = chosenKbs(o);
  o.split = split;
  return kbs;
}

function kbOptions(cmd: Command): Command {
  return cmd
    .option('--split <name>', `KB split (${SPLITS.join(', ')}; default: medium, or the split of the --kb folder)`, splitFlag)
    .option('--kb-seed <n>', 'seed of the generated KB', intFlag('--kb-seed', 0), 1)
    .option('--kb <dir>', 'read db.txt and incomplete_db_<missing>.txt from this folder instead of generating the KB (default: generate it from --kb-seed)')
    .option('--missing <f>', "fraction of values hidden in the agent's KB", floatFlag('--missing', 0, 0.99), DEFAULT_MISSING);
}

/** The figures of an evaluation, as `--json` prints them. */
function reportFigures(r: EvalReport): EvalReport {
  return { agent: r.agent, split: r.split, episodes: r.episodes, turns: r.turns, success: r.success, reward: r.reward, rewardStdErr: r.rewardStdErr };
}

/** A cell of `infobot table --json`: the figures, plus the sd and each seed's figures over several evaluation seeds. */
function rowFigures(r: TableRow): object {
  if (r.seeds === undefined) return reportFigures(r);
  return { ...reportFigures(r), sd: r.sd, seeds: r.seeds.map((s) => ({ seed: s.seed, ...reportFigures(s) })) };
}

interface InfobotEvalFlags extends KbFlags {
  agent: string;
  episodes: number;
  seed: number;
  temperature: number;
  json?: boolean;
  policies?: string;
  workers?: number;
}

function printInfobotEval(r: EvalReport, json: boolean): void {
  if (json) {
    out(JSON.stringify(reportFigures(r)));
    return;
  }
  out(`${r.agent} on ${r.split} (${r.episodes} episodes): T ${r.turns.toFixed(2)}  S ${r.success.toFixed(3)}  R ${r.reward.toFixed(3)} ± ${r.rewardStdErr.toFixed(3)}`);
}

/** The flags as the run's options (a shard file of dialogym-shard/1 recorded these flags). */
function evalFromFlags(r: Record<string, unknown>): { options: InfobotEvalOptions; print: { json?: true } } {
  const o = r as unknown as InfobotEvalFlags;
  const options: InfobotEvalOptions = {
    agent: o.agent,
    episodes: o.episodes,
    seed: o.seed,
    temperature: o.temperature,
    ...(o.split !== undefined ? { split: o.split } : {}),
    kbSeed: o.kbSeed,
    ...(o.kb !== undefined ? { kb: o.kb } : {}),
    missing: o.missing,
    ...(o.policies !== undefined ? { policies: o.policies } : {}),
    ...(o.workers !== undefined ? { workers: o.workers } : {}),
  };
  return { options, print: o.json ? { json: true } : {} };
}

/** `infobot eval`: the library's `infobotEvalRun` (src/testbeds/infobot/runs/eval.ts), its progress (above 2,000 episodes, not with `--json`) and its figures (also `merge`'s). */
export const infobotEvalVerb: VerbRun<InfobotEvalOptions, EvalReport> = {
  run: infobotEvalRun,
  fromFlags: evalFromFlags,
  print: (r, p) => printInfobotEval(r, p['json'] === true),
  progress: (total, _o, p) => progress('eval', total, { quiet: p['json'] === true || total < 2000 }),
};

export function registerInfobot(program: Command): void {
  const cmd = program.command('infobot').description(SUMMARY.infobot);

  cmd
    .command('kb')
    .description('generate a movie KB split: writes db.txt (full) and incomplete_db_0.20.txt (the agent copy) as TSV')
    .option('--split <name>', `KB split (${SPLITS.join(', ')})`, splitFlag, 'medium' as SplitName)
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .option('--missing <f>', "fraction of values hidden in the agent's copy", floatFlag('--missing', 0, 0.99), DEFAULT_MISSING)
    .requiredOption('--out <dir>', 'output folder', outFolderFlag('--out'))
    .option('--json', 'print {"db","incomplete","movies","maxVocabulary","missingFull","missingAgent"} as JSON')
    .action(
      action((o: { split: SplitName; seed: number; missing: number; out: string; json?: boolean }) => {
        const { full, incomplete } = splitKbs(o.split, o.seed, o.missing);
        const names = kbFileNames(o.missing);
        const fullFile = join(o.out, names.full);
        const incFile = join(o.out, names.incomplete);
        const fullText = formatKbTsv(full);
        const incText = formatKbTsv(incomplete);
        writeFileAtomic(fullFile, fullText);
        writeFileAtomic(incFile, incText);
        if (o.json) {
          out(JSON.stringify({ db: fullFile, incomplete: incFile, movies: full.n, maxVocabulary: full.maxVocabulary(), missingFull: full.missingFraction(), missingAgent: incomplete.missingFraction() }));
          return;
        }
        out(`wrote ${fullFile} and ${incFile}`);
        out(`movies ${full.n}, max slot vocabulary ${full.maxVocabulary()}, missing ${(100 * full.missingFraction()).toFixed(1)}% (full) / ${(100 * incomplete.missingFraction()).toFixed(1)}% (agent)`);
      }),
    );

  shardOptions(kbOptions(
    cmd
      .command('eval')
      .description('evaluate an agent against the simulated user: average turns T, success S, reward R ± standard error')
      .requiredOption('--agent <name>', `agent (${infobotAgents.names().join(', ')}) or a trained policy file (.dgm)`)
      .option('--episodes <n>', 'simulated dialogs', intFlag('--episodes', 1, 10_000_000), 5000)
      .option('--seed <n>', 'seed of the episodes', intFlag('--seed', 0), 1)
      .option('--temperature <t>', 'NLG temperature (noise)', floatFlag('--temperature', 0, 100), 1)
      .option('--json', 'print {"agent","split","episodes","turns","success","reward","rewardStdErr"}')
      .option('--policies <dir>', 'folder of the default trained policies of the rl-* agents (default: the user folder, then the shipped ones)')
      .option('--workers <n>', `episodes played on n worker threads, same result for any n (default: 2, or 1 on a 1-core machine or under ${MIN_PARALLEL_EPISODES} episodes; 1 = no worker)`, intFlag('--workers', 1, 64)),
  )).action(action((o: InfobotEvalFlags & ShardFlags) => runVerb(o, infobotEvalVerb)));

  cmd
    .command('table')
    .description("reproduce the paper's Table 2 (rule, RL, E2E agents and Max; the paper's cell beside ours with the difference) and the reward against NLG temperature, as Markdown")
    .option('--episodes <n>', 'simulated dialogs per cell', intFlag('--episodes', 1, 10_000_000), 5000)
    .option('--seed <n>', 'seed of the episodes', intFlag('--seed', 0), 1)
    .option('--seeds <list>', 'comma-separated evaluation seeds, e.g. 1,7,13: every cell is run once per seed and shows mean ± sd over them, judged on the mean (default: --seed alone)', listFlag('--seeds', intFlag('--seeds', 0)))
    .option('--kb-seed <n>', 'seed of the generated KBs', intFlag('--kb-seed', 0), 1)
    .addOption(new Option('--splits <list>', 'comma-separated KB splits').argParser(listFlag('--splits', splitFlag)).default([...SPLITS], SPLITS.join(',')))
    .option('--agents <list>', `comma-separated agents (default ${TABLE_AGENTS.join(',')}, plus the rl-* agents whose default policies exist for every split)`, listFlag('--agents', (a) => (infobotAgents.get(a), a)))
    .addOption(
      new Option('--temperatures <list>', 'NLG temperatures of the sweep (on --sweep-split; "none" to skip)')
        .argParser((v: string) => (v === 'none' ? [] : listFlag('--temperatures', (x) => floatFlag('--temperatures', 0, 100)(x))(v)))
        .default([0, 0.5, 1, 2, 3], '0,0.5,1,2,3'),
    )
    .option('--sweep-split <name>', 'KB split of the temperature sweep', splitFlag, 'medium' as SplitName)
    .option('--sweep-agents <list>', 'comma-separated agents of the temperature sweep (default: the table agents but max)', listFlag('--sweep-agents', (a) => (infobotAgents.get(a), a)))
    .option('--policies <dir>', 'folder of the default trained policies of the rl-* agents (default: the user folder, then the shipped ones)')
    .option('--out <file>', 'Markdown file to write; the LaTeX table (.tex) and the chart (.svg) are written beside it (default: none, the table is only printed)', outFileFlag('--out'))
    .option('--json', 'print {"rows":[{"agent","split","episodes","turns","success","reward","rewardStdErr"}],"sweep":[… ,"temperature"]} instead of the Markdown (several --seeds: the means, rewardStdErr the sd of R, plus "sd" and "seeds":[{"seed",…}])')
    .option('--workers <n>', 'runs (agent × split × seed) played on n worker threads, same table for any n (default: 2, or 1 on a 1-core machine; 1 = no worker)', intFlag('--workers', 1, 64))
    .action(
      action(async (o: { episodes: number; seed: number; seeds?: number[]; kbSeed: number; splits: SplitName[]; agents?: string[]; temperatures: number[]; sweepSplit: SplitName; sweepAgents?: string[]; out?: string; policies?: string; json?: boolean; workers?: number }) => {
        const trained = TRAINABLE.filter((a) => [...o.splits, o.sweepSplit].every((s) => locateDefaultPolicy(o.policies, a, s) !== undefined));
        const agents = o.agents ?? [...TABLE_AGENTS.slice(0, 3), ...trained, ...TABLE_AGENTS.slice(3)];
        let bar: ReturnType<typeof progress> | null = null;
        const workers = o.workers ?? Math.min(2, availableParallelism());
        const opts: TableOptions = {
          agents,
          splits: o.splits,
          episodes: o.episodes,
          seed: o.seed,
          ...(o.seeds !== undefined ? { evalSeeds: o.seeds } : {}),
          kbSeed: o.kbSeed,
          temperatures: o.temperatures,
          sweepSplit: o.sweepSplit,
          sweepAgents: o.sweepAgents ?? agents.filter((a) => a !== 'max'),
          policyDir: o.policies,
          onProgress: (done, total) => {
            bar ??= progress('table', total, { quiet: total < 2000 });
            bar.update(done);
          },
        };
        const r = workers > 1 ? await infobotTableOnWorkers(opts, workers) : infobotTable(opts);
        (bar as ReturnType<typeof progress> | null)?.stop();
        const stem = o.out?.replace(/\.md$/, '');
        if (o.out !== undefined) {
          writeFileAtomic(o.out, r.markdown);
          writeFileAtomic(`${stem}.tex`, infobotLatex(r.rows));
          writeFileAtomic(`${stem}.svg`, infobotSvg(r.rows));
        }
        if (o.json) {
          out(JSON.stringify({ rows: r.rows.map(rowFigures), sweep: r.sweep.map((s) => ({ ...rowFigures(s), temperature: s.temperature })), ...(o.out !== undefined ? { out: o.out } : {}) }));
          return;
        }
        process.stdout.write(r.markdown);
        if (o.out !== undefined) out(`wrote ${o.out}, ${stem}.tex and ${stem}.svg`);
      }),
    );

  cmd
    .command('train')
    .description('train an agent against the simulated user (imitation of a rule agent — for rl-nokb and rl-hard the No-KB one, informing once it has heard as many slots as a user usually knows — then REINFORCE, discount 0.99); writes the model (.dgm) and its learning curve (.svg)')
    .requiredOption('--agent <name>', `agent to train (${TRAINABLE.join(', ')})`, (v: string) => {
      if (!(TRAINABLE as readonly string[]).includes(v)) throw new ConfigError(`--agent: cannot train '${v}' (trainable: ${TRAINABLE.join(', ')})`);
      return v as Trainable;
    })
    .option('--split <name>', `KB split (${SPLITS.join(', ')})`, splitFlag, 'medium' as SplitName)
    .option('--kb-seed <n>', 'seed of the generated KB', intFlag('--kb-seed', 0), 1)
    .option('--seed <n>', 'seed of initialisation, training dialogs and sampling', intFlag('--seed', 0), 1)
    .option('--episodes <n>', `REINFORCE training dialogs (default: ${RL_DEFAULTS.episodes} for rl-*, ${E2E_DEFAULTS.episodes} for e2e-soft)`, intFlag('--episodes', 0, 100_000_000))
    .option('--imitation <n>', 'imitation dialogs first (the rule agent plays, the learner follows its actions; e2e-soft: its tracker learns from the user acts)', intFlag('--imitation', 0, 100_000_000), 10_000)
    .option('--batch <n>', `dialogs per REINFORCE update (default: ${RL_DEFAULTS.batch} for rl-*, ${E2E_DEFAULTS.batch} for e2e-soft)`, intFlag('--batch', 1, 100_000))
    .option('--lr <x>', `RMSProp learning rate of REINFORCE (policy) (default: ${RL_DEFAULTS.lr} for rl-*, ${E2E_DEFAULTS.lr} for e2e-soft)`, floatFlag('--lr', 1e-7, 10))
    .option('--hidden <n>', 'policy GRU state size', intFlag('--hidden', 1, 4096), 50)
    .option('--hard-count <input>', "rl-hard: the query's match count as the policy sees it: bins (official, one-hot 0..4, ≥5) or log (log-scaled) (default: bins)", (v: string) => {
      if (v !== 'bins' && v !== 'log') throw new ConfigError(`--hard-count: '${v}' is not bins or log`);
      return v as HardCountInput;
    })
    .option('--tracker-hidden <n>', 'e2e-soft: GRU state size of each slot tracker', intFlag('--tracker-hidden', 1, 4096), 32)
    .option('--dim <n>', 'e2e-soft: n-gram embedding size', intFlag('--dim', 1, 4096), 32)
    .addOption(alias('--embed <n>', 'dim', intFlag('--embed', 1, 4096)))
    .option('--residual', "e2e-soft: the neural tracker also reads the hand-crafted tracker's beliefs (learned weight per slot) and learns corrections")
    .option('--temperatures <list>', `e2e-soft: NLG temperatures of the training dialogs, taken in turn (validation: --validation-temperature) (default: ${E2E_DEFAULTS.temperatures.join(',')})`, listFlag('--temperatures', (x) => floatFlag('--temperatures', 0, 100)(x)))
    .option('--validation-temperature <t>', 'e2e-soft: NLG temperature of the validation dialogs that select the kept parameters (default: 1)', floatFlag('--validation-temperature', 0, 100))
    .option('--validation-episodes <n>', `e2e-soft: validation dialogs (default: ${E2E_DEFAULTS.validationEpisodes})`, intFlag('--validation-episodes', 1, 10_000_000))
    .option('--reask-lost', 'e2e-soft: in imitation, the expert re-asks a slot whose answer has no readable value (NLG noise), once per slot')
    .option('--init <file>', 'e2e-soft: continue training this agent file (its sizes and vocabulary; the learning curve continues) (default: none, a fresh agent)')
    .option('--out <file>', 'model file to write (default: <agent>-<split>.dgm in --policies, used by `infobot eval --agent <name>`)', outFileFlag('--out'))
    .option('--curve <file>', 'learning curve SVG (default: the model file with .svg)', outFileFlag('--curve'))
    .option('--policies <dir>', 'folder of the default policies (default: policies/infobot in the user folder, ~/.cache/dialogym or $DIALOGYM_HOME; never the package)')
    .option('--json', 'print {"agent","split","out","curve","dialogs","seconds","bestValidReward","bestEpisodes"} as JSON')
    .action(
      action((o: { agent: Trainable; split: SplitName; kbSeed: number; seed: number; episodes?: number; imitation: number; batch?: number; lr?: number; hidden: number; trackerHidden: number; dim: number; json?: boolean; residual?: boolean; temperatures?: number[]; validationTemperature?: number; validationEpisodes?: number; reaskLost?: boolean; init?: string; out?: string; curve?: string; policies?: string; hardCount?: HardCountInput }) => {
        const e2e = o.agent === 'e2e-soft';
        const episodes = o.episodes ?? (e2e ? E2E_DEFAULTS.episodes : RL_DEFAULTS.episodes);
        if (!e2e) {
          const only: [string, unknown][] = [['--init', o.init], ['--residual', o.residual], ['--temperatures', o.temperatures], ['--validation-temperature', o.validationTemperature], ['--validation-episodes', o.validationEpisodes], ['--reask-lost', o.reaskLost]];
          for (const [flag, v] of only) if (v !== undefined) throw new ConfigError(`${flag}: only for --agent e2e-soft`);
        }
        if (o.hardCount !== undefined && o.agent !== 'rl-hard') throw new ConfigError('--hard-count: only for --agent rl-hard');
        if (episodes + o.imitation === 0) throw new ConfigError('--episodes and --imitation are both 0: nothing to train');
        // The default outputs are checked before training, as --out and --curve are when given.
        const file = o.out ?? outFileFlag(o.policies !== undefined ? '--policies' : '--out (default)')(defaultPolicyFile(o.policies ?? userPolicyDir(), o.agent, o.split));
        const curveFile = o.curve ?? outFileFlag('--curve (default)')(file.replace(/(\.dgm)?$/, '.svg'));
        const total = o.imitation + episodes;
        const bar = progress(`train ${o.agent}`, total, { quiet: total < 2000 });
        const t0 = Date.now();
        const cpu0 = process.cpuUsage();
        let offset = 0;
        const onBatch = (p: CurvePoint): void => bar.update(p.episodes - offset, `${p.phase} R ${p.reward.toFixed(2)}${p.validReward !== undefined ? ` valid ${p.validReward.toFixed(2)}` : ''}`);
        const common = { split: o.split, kbSeed: o.kbSeed, seed: o.seed, episodes, imitation: o.imitation, hidden: o.hidden, onBatch, ...(o.lr !== undefined ? { lr: o.lr } : {}), ...(o.batch !== undefined ? { batch: o.batch } : {}) };
        let figures: { curve: CurvePoint[]; bestValidReward: number; bestEpisodes: number };
        if (e2e) {
          const init = o.init === undefined ? undefined : loadE2e(o.init);
          offset = init?.meta.curve.at(-1)?.episodes ?? 0;
          if (init && (init.meta.split !== o.split || init.meta.kbSeed !== o.kbSeed)) throw new ConfigError(`--init: ${o.init} was trained on ${init.meta.split} (KB seed ${init.meta.kbSeed}), not ${o.split} (KB seed ${o.kbSeed})`);
          const r = trainE2e({ ...common, trackerHidden: o.trackerHidden, embed: o.dim, residual: o.residual === true, reaskLost: o.reaskLost === true, ...(o.validationEpisodes !== undefined ? { validationEpisodes: o.validationEpisodes } : {}), ...(o.validationTemperature !== undefined ? { validationTemperature: o.validationTemperature } : {}), ...(o.temperatures ? { temperatures: o.temperatures } : {}), ...(init ? { init: { parts: init.parts, curve: init.meta.curve } } : {}) });
          bar.stop();
          saveE2e(file, r);
          figures = r;
        } else {
          const r = trainRlPolicy({ ...common, agent: o.agent as RlAgentName, ...(o.hardCount ? { hardCount: o.hardCount } : {}) });
          bar.stop();
          savePolicy(file, r);
          figures = r;
        }
        const seconds = (Date.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        writeFileAtomic(curveFile, learningCurveSvg(figures.curve, `${o.agent} on ${o.split}: imitation ${o.imitation} + REINFORCE ${episodes} dialogs (seed ${o.seed})`));
        if (o.json) {
          out(JSON.stringify({ agent: o.agent, split: o.split, out: file, curve: curveFile, dialogs: total, seconds, bestValidReward: figures.bestValidReward, bestEpisodes: figures.bestEpisodes }));
          return;
        }
        out(`wrote ${file} and ${curveFile}`);
        out(`trained ${o.agent} on ${o.split} in ${seconds.toFixed(1)} s (cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s): ${total} dialogs, best greedy validation reward ${figures.bestValidReward.toFixed(3)} after ${figures.bestEpisodes} dialogs`);
      }),
    );

  kbOptions(
    cmd
      .command('chat')
      .description('play the user against an agent in the terminal (reads your utterances from stdin, one per line)')
      .option('--agent <name>', 'agent name or trained policy file (.dgm)', 'rule-soft')
      .option('--seed <n>', 'seed of the target movie', intFlag('--seed', 0), 1)
      .option('--no-target', 'do not assign a target movie (free search)')
      .option('--policies <dir>', 'folder of the default trained policies of the rl-* agents (default: the user folder, then the shipped ones)'),
  ).action(
    action(async (o: KbFlags & { agent: string; seed: number; target: boolean; policies?: string }) => {
      const entry = isPolicyFile(o.agent) ? { privileged: false } : infobotAgents.get(o.agent);
      if (entry.privileged) throw new ConfigError(`agent '${o.agent}' is an upper bound that reads the simulated user's goal; it cannot chat`);
      const kbs = loadKbs(o);
      const env = new InfoBotEnv({ split: o.split as SplitName, kbs });
      const { agent } = createInfoBotAgent(o.agent, env, o.policies);
      const rng = createRng(o.seed);
      const goal = o.target ? env.sim.sampleGoal(rng.fork('goal')) : null;
      if (goal) for (const l of describeGoal(goal, env.full)) out(l);
      out(`Talking to ${o.agent} (${env.id}). Describe the movie you want; one line per turn (end of input quits).`);
      const chat = new ChatSession(agent, env.kb, goal, rng.fork('agent'), env.sim.opts.maxTurns, env.sim.opts.successMaxRank);
      const rl = createInterface({ input: process.stdin, terminal: false });
      if (process.stdin.isTTY) process.stdout.write('you: ');
      for await (const line of rl) {
        const r = chat.say(line);
        out(`bot: ${r.reply}`);
        if (r.done) break;
        if (process.stdin.isTTY) process.stdout.write('you: ');
      }
      rl.close();
      if (!chat.done) out('(input ended before the agent answered)');
      else out(`turns ${chat.turn}, reward ${chat.total.toFixed(2)}`);
    }),
  );

  cmd
    .command('agents')
    .description('list the agents')
    .action(
      action(() => {
        for (const e of infobotAgents.list()) out(`${e.name.padEnd(10)} ${e.description}`);
      }),
    );
}
