/**
 * `dialogym airdialogue …` — AirDialogue tools: logic (recompute expected actions), score (the
 * official scorer, human mode or predictions), generate (templated dialog simulator), selfplay
 * (agent policy vs customer policy in the `airdialogue-v1` environment), splits (synthesized train/dev/test
 * files), train / eval (the learned seq2seq agents and state model, paper §6 and Table 8).
 */
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { StagedFolder, writeFileAtomic } from '../../core/files.js';
import { airExamples, airPredictedExamples, writeAirLines, type AirExample, type AirReadOptions } from '../../formats/airdialogue.js';
import { agentPolicies, checkLogic, customerPolicies, scoreHuman, scorePredicted, type ScoreReport } from '../../testbeds/airdialogue/index.js';
import { progress } from '../progress.js';
import { action, alias, checkHeldOut, floatFlag, inputFlag, intFlag, out, outFileFlag, outFolderFlag } from '../run.js';
import { ConfigError } from '../../core/errors.js';
import { runVerb, shardOptions, type ShardFlags, type VerbRun } from '../shard.js';
import { airGenerateRun, type AirGenerateOptions, type AirGenerateResult } from '../../testbeds/airdialogue/runs/generate.js';
import { airSelfplayRun, type AirSelfplayOptions, type AirSelfplayResult } from '../../testbeds/airdialogue/runs/selfplay.js';
import { SUMMARY } from './summaries.js';

function printScores(r: ScoreReport & { bleu?: { customer: number; agent: number; both: number } }, json: boolean): void {
  if (json) {
    out(JSON.stringify(r));
    return;
  }
  const f = (x: number) => x.toFixed(5);
  out(`dialogs ${r.dialogs}`);
  out(`scaled  total ${f(r.total)}  name ${f(r.name)}  flight ${f(r.flight)}  action ${f(r.action)}`);
  out(`exact   total ${f(r.exact.total)}  name ${f(r.exact.name)}  flight ${f(r.exact.flight)}  action ${f(r.exact.action)}`);
  if (r.bleu) out(`BLEU-4  customer ${r.bleu.customer.toFixed(2)}  agent ${r.bleu.agent.toFixed(2)}  both ${r.bleu.both.toFixed(2)}  (generated turns against the simulator's dialogue on the same context)`);
}

const MIB = 1024 * 1024;

/**
 * Progress of a streamed read of `files` (a data file first, then its aligned files), in MiB of
 * the first one, shown when they hold 128 MiB or more together (the full release's dev files
 * read in about 5 s, its train files in about a minute).
 */
function readProgress(label: string, files: readonly string[]): { onBytes: (bytes: number) => void; stop: () => void } {
  const size = (f: string) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  const first = size(files[0]!);
  const bar = progress(`${label} (MiB of ${basename(files[0]!)})`, Math.ceil(first / MIB), { quiet: files.reduce((a, f) => a + size(f), 0) < 128 * MIB });
  let last = -1;
  return {
    onBytes: (bytes) => {
      const mib = Math.ceil(bytes / MIB); // the end of the file is the total
      if (mib !== last) bar.update((last = mib));
    },
    stop: () => bar.stop(),
  };
}

/** The examples of a data file and its KB file, streamed with a progress line (at most `max`: the first lines). */
function streamExamples(label: string, data: string, kb: string, o: AirReadOptions = {}): { examples: Generator<AirExample, void, undefined>; stop: () => void } {
  const bar = readProgress(label, [data, kb]);
  return { examples: airExamples(data, kb, { ...o, onBytes: bar.onBytes }), stop: bar.stop };
}

/** The `--data` and `--kb` flags of the verbs that read a data file with its KB file. */
function dataAndKbFlags(c: Command): Command {
  return c.requiredOption('--data <file>', 'data file (JSON Lines)', inputFlag('--data')).requiredOption('--kb <file>', 'KB file aligned with the data file', inputFlag('--kb'));
}

export function registerAirdialogue(program: Command): void {
  const cmd = program.command('airdialogue').description(SUMMARY.airdialogue);

  dataAndKbFlags(
    cmd
      .command('logic')
      .description('recompute every expected action from the two contexts and report agreement (streams the files: any size, one line in memory)'),
  )
    .option('--json', 'print {"lines","agree","agreement"} as JSON')
    .action(
      action((o: { data: string; kb: string; json?: boolean }) => {
        const read = streamExamples('logic', o.data, o.kb);
        const r = checkLogic(read.examples);
        read.stop();
        if (o.json) {
          out(JSON.stringify({ lines: r.lines, agree: r.agree, agreement: r.agreement }));
          return;
        }
        out(`lines ${r.lines}, agree ${r.agree}, agreement ${(100 * r.agreement).toFixed(2)}%`);
        if (r.disagreeing.length > 0) out(`disagreeing lines: ${r.disagreeing.join(', ')}${r.lines - r.agree > r.disagreeing.length ? ', …' : ''}`);
      }),
    );

  dataAndKbFlags(
    cmd
      .command('score')
      .description("score actions against expected actions (without --pred: the humans' actions, official human mode); streams the files: any size, one line in memory"),
  )
    .option('--pred <file>', 'predicted actions, one per data line (an action object, or an object with "action") (default: the humans\' actions)')
    .option('--json', 'print the scores as JSON')
    .action(
      action((o: { data: string; kb: string; pred?: string; json?: boolean }) => {
        let r: ScoreReport;
        if (o.pred) {
          const bar = readProgress('score', [o.data, o.kb, o.pred]);
          r = scorePredicted(airPredictedExamples(o.data, o.kb, o.pred, { onBytes: bar.onBytes }));
          bar.stop();
        } else {
          const read = streamExamples('score', o.data, o.kb);
          r = scoreHuman(read.examples);
          read.stop();
        }
        printScores(r, o.json === true);
      }),
    );

  const generate = cmd
    .command('generate')
    .description('templated dialog simulator: write data.json + kb.json (original format) of rule customer vs rule agent dialogs')
    .requiredOption('--dialogs <n>', 'number of dialogs', intFlag('--dialogs', 1, 10_000_000))
    .addOption(alias('--n <k>', 'dialogs', intFlag('--n', 1, 10_000_000)))
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .requiredOption('--out <dir>', 'output folder', outFolderFlag('--out'))
    .option('--ood [k]', 'context setting: 0 in-domain, 2 (or no value) out-of-domain (uniform goals, reservation 70%, larger name/airport sets; level 1 is for the learned agents: splits, selfplay, rl) (default: in-domain)')
    .option('--json', 'print {"dialogs","data","kb","statuses","score"} as JSON');
  shardOptions(generate).action(action((o: GenerateFlags & ShardFlags) => runVerb(o, airGenerateVerb)));

  const selfplay = cmd
    .command('selfplay')
    .description('self-play in airdialogue-v1: an agent policy against a customer policy, scored by the official scorer')
    .option('--agent <name|file>', `agent policy (${agentPolicies.names().join(', ')}) or a model file of \`airdialogue train\``, 'rules')
    .option('--customer <name|file>', `customer policy (${customerPolicies.names().join(', ')}) or a model file of \`airdialogue train\``, 'rules')
    .requiredOption('--episodes <n>', 'number of episodes', intFlag('--episodes', 1, 10_000_000))
    .addOption(alias('--n <k>', 'episodes', intFlag('--n', 1, 10_000_000)))
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .option('--ood [k]', 'out-of-domain contexts: 1 other goal/reservation priors, 2 (or no value) those plus unseen names and airports (default: in-domain)')
    .option('--max-turns <n>', 'utterances before an episode is truncated', intFlag('--max-turns', 2, 10_000), 40)
    .option('--transcripts <file>', 'write every episode (dialogue, action, expected action, score) as JSON Lines (default: none)', outFileFlag('--transcripts'))
    .option('--json', 'print the scores as JSON');
  shardOptions(selfplay).action(action((o: SelfplayFlags & ShardFlags) => runVerb(o, airSelfplayVerb)));

  registerLearned(cmd);
}

interface GenerateFlags {
  dialogs: number;
  seed: number;
  out: string;
  ood?: string | boolean;
  json?: boolean;
}

interface SelfplayFlags {
  agent: string;
  customer: string;
  episodes: number;
  seed: number;
  ood?: string | boolean;
  maxTurns: number;
  transcripts?: string;
  json?: boolean;
}

/** generate's flags as the run's options (a shard file of dialogym-shard/1 recorded these flags); `--ood 1` is refused. */
function generateFromFlags(r: Record<string, unknown>): { options: AirGenerateOptions; print: { json?: true } } {
  const o = r as unknown as GenerateFlags;
  const ood = oodLevel(o.ood);
  if (ood === 1) throw new ConfigError('--ood 1: airdialogue generate writes in-domain (0) or out-of-domain (2) contexts; level 1 is for airdialogue splits, selfplay and rl');
  return { options: { dialogs: o.dialogs, seed: o.seed, out: o.out, ...(ood === 2 ? { ood: true } : {}) }, print: o.json ? { json: true } : {} };
}

/** selfplay's flags as the run's options (a shard file of dialogym-shard/1 recorded these flags). */
function selfplayFromFlags(r: Record<string, unknown>): { options: AirSelfplayOptions; print: { json?: true } } {
  const o = r as unknown as SelfplayFlags;
  const ood = oodLevel(o.ood);
  const options: AirSelfplayOptions = { agent: o.agent, customer: o.customer, episodes: o.episodes, seed: o.seed, ...(ood !== 0 ? { ood } : {}), maxTurns: o.maxTurns, ...(o.transcripts ? { transcripts: o.transcripts } : {}) };
  return { options, print: o.json ? { json: true } : {} };
}

function printGenerate(r: AirGenerateResult, p: Record<string, unknown>): void {
  if (p['json']) {
    out(JSON.stringify({ dialogs: r.dialogs, data: r.data, kb: r.kb, statuses: r.statuses, score: r.score }));
    return;
  }
  out(`wrote ${r.dialogs} dialogs to ${r.data} and ${r.kb}`);
  out(`expected status: ${Object.entries(r.statuses).map(([k, v]) => `${k} ${v}`).join(', ')}; rule agent score ${r.score.toFixed(5)}`);
}

/** `airdialogue generate`: the library's `airGenerateRun`, its progress (above 2,000 dialogs), its printer (also `merge`'s). */
export const airGenerateVerb: VerbRun<AirGenerateOptions, AirGenerateResult> = {
  run: airGenerateRun,
  fromFlags: generateFromFlags,
  print: printGenerate,
  progress: (total) => progress('generate', total, { quiet: total < 2000 }),
};

/** `airdialogue selfplay`: the library's `airSelfplayRun`, its progress (above 2,000 episodes), its printer (also `merge`'s). */
export const airSelfplayVerb: VerbRun<AirSelfplayOptions, AirSelfplayResult> = {
  run: airSelfplayRun,
  fromFlags: selfplayFromFlags,
  print: (r, p) => printScores(r, p['json'] === true),
  progress: (total) => progress('selfplay', total, { quiet: total < 2000 }),
};

/** `--ood [k]` of generate and selfplay: absent 0, given without a value 2, else the level. */
function oodLevel(v: string | boolean | undefined): 0 | 1 | 2 {
  return v === undefined || v === false ? 0 : typeof v === 'string' ? oodFlag(v) : 2;
}

function oodFlag(v: string): 0 | 1 | 2 {
  if (v !== '0' && v !== '1' && v !== '2') throw new ConfigError(`--ood: expected 0, 1 or 2, got '${v}'`);
  return Number(v) as 0 | 1 | 2;
}

function registerLearned(cmd: Command): void {
  cmd
    .command('splits')
    .description('synthesized train/dev/test splits (templated simulator) as {train,dev,test}_{data,kb}.json')
    .requiredOption('--out <dir>', 'output folder', outFolderFlag('--out'))
    .option('--train-dialogs <n>', 'training dialogues', intFlag('--train-dialogs', 0, 10_000_000), 2000)
    .option('--dev-dialogs <n>', 'dev dialogues', intFlag('--dev-dialogs', 0, 10_000_000), 200)
    .option('--test-dialogs <n>', 'test dialogues', intFlag('--test-dialogs', 0, 10_000_000), 200)
    .addOption(alias('--train <n>', 'trainDialogs', intFlag('--train', 0, 10_000_000)))
    .addOption(alias('--dev <n>', 'devDialogs', intFlag('--dev', 0, 10_000_000)))
    .addOption(alias('--test <n>', 'testDialogs', intFlag('--test', 0, 10_000_000)))
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .option('--ood <k>', 'context setting: 0 in-domain, 1 other goal/reservation priors, 2 those plus unseen names and airports (Table 10)', oodFlag, 0)
    .action(
      action(async (o: { out: string; trainDialogs: number; devDialogs: number; testDialogs: number; seed: number; ood: 0 | 1 | 2 }) => {
        const { synthesizeSplits } = await import('../../testbeds/airdialogue/learned/data.js');
        const total = o.trainDialogs + o.devDialogs + o.testDialogs;
        const bar = progress('splits', total, { quiet: total < 2000 });
        const s = synthesizeSplits({ train: o.trainDialogs, dev: o.devDialogs, test: o.testDialogs, seed: o.seed, ood: o.ood, onEpisode: (d) => bar.update(d) });
        bar.stop();
        // The six files or none (core/files.ts StagedFolder): a killed run never leaves a train set beside another run's dev set.
        const staged = new StagedFolder(o.out, 'dialogym airdialogue splits');
        try {
          for (const name of ['train', 'dev', 'test'] as const) {
            writeAirLines(staged.path(`${name}_data.json`), s[name].map((e) => e.data));
            writeAirLines(staged.path(`${name}_kb.json`), s[name].map((e) => e.kb));
          }
        } catch (e) {
          staged.abort();
          throw e;
        }
        staged.commit();
        out(`wrote ${o.trainDialogs} train, ${o.devDialogs} dev, ${o.testDialogs} test dialogues to ${o.out}`);
      }),
    );

  cmd
    .command('train')
    .description('train the learned customer and agent models (GRU seq2seq with attention, hierarchical flight encoder, pointer state model); the model file holds the best dev epoch so far. The files are streamed into a compact store (about 2.5 KB a dialogue: the full 321,459-dialogue training set takes about 0.8 GB)')
    .requiredOption('--data <file>', 'training data (JSON Lines)', inputFlag('--data'))
    .requiredOption('--kb <file>', 'KB file aligned with --data', inputFlag('--kb'))
    .option('--dev-data <file>', 'dev data (default: the last 10% of the dialogues read from --data)', inputFlag('--dev-data'))
    .option('--dev-kb <file>', 'KB file aligned with --dev-data (required with --dev-data)', inputFlag('--dev-kb'))
    .option('--max-dialogues <n>', 'dialogues read from --data: its first n lines (default: all)', intFlag('--max-dialogues', 1))
    .option('--max-dev-dialogues <n>', 'dialogues read from --dev-data: its first n lines (default: all)', intFlag('--max-dev-dialogues', 1))
    .requiredOption('--out <file>', 'model file (.dgm)', outFileFlag('--out'))
    .option('--curve <file>', 'learning curve SVG (default: the model file with .svg)', outFileFlag('--curve'))
    .option('--epochs <n>', 'epochs', intFlag('--epochs', 1, 1000), 8)
    .option('--dim <n>', 'embedding size', intFlag('--dim', 1, 4096), 24)
    .option('--hidden <n>', 'GRU state size', intFlag('--hidden', 1, 4096), 48)
    .option('--no-match', "the agent's flight memory without the flags of the flight values the customer said (the paper's plain attention)")
    .option('--point', 'with the match flags: the agent names flights by pointing only (flight numbers left out of its vocabulary softmax)')
    .option('--ordered-match', 'with the match flags: the departure/return flags follow the order the customer said them in')
    .option('--batch <n>', 'dialogues per update', intFlag('--batch', 1, 100_000), 8)
    .option('--lr <x>', 'Adam learning rate', floatFlag('--lr', 1e-7, 10), 0.01)
    .option('--min-count <n>', 'dialogue words seen fewer times map to <unk>', intFlag('--min-count', 1, 1_000_000), 1)
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .option('--workers <n>', 'threads computing each batch, in parts of 2 dialogues; the same model for any n (default: 2, or 1 on a 1-core machine; 1 = no worker)', intFlag('--workers', 1, 64))
    .addOption(alias('--threads <n>', 'workers', intFlag('--threads', 1, 64)))
    .action(
      action(async (o: { data: string; kb: string; devData?: string; devKb?: string; maxDialogues?: number; maxDevDialogues?: number; out: string; curve?: string; epochs: number; dim: number; hidden: number; match: boolean; point?: boolean; orderedMatch?: boolean; batch: number; lr: number; minCount: number; seed: number; workers?: number }) => {
        const { trainAirModels, saveAirModels } = await import('../../testbeds/airdialogue/learned/train.js');
        const { trainingCurveSvg } = await import('../../testbeds/airdialogue/learned/curve.js');
        const { LearnedStore } = await import('../../testbeds/airdialogue/learned/data.js');
        if ((o.devData === undefined) !== (o.devKb === undefined)) throw new ConfigError('--dev-data and --dev-kb go together');
        if (o.maxDevDialogues !== undefined && o.devData === undefined) throw new ConfigError('--max-dev-dialogues needs --dev-data and --dev-kb (without them the dev part is the last 10% of --data)');
        checkHeldOut(['--data', o.data], ['--dev-data', o.devData]);
        const t0 = Date.now();
        const load = (label: string, data: string, kb: string, max: number | undefined) => {
          const read = streamExamples(label, data, kb, max !== undefined ? { maxLines: max } : {});
          const store = LearnedStore.from(read.examples);
          read.stop();
          return store;
        };
        const all = load('read', o.data, o.kb, o.maxDialogues);
        const devStore = o.devData && o.devKb ? load('read dev', o.devData, o.devKb, o.maxDevDialogues) : undefined;
        const cut = devStore ? all.length : all.length - Math.max(1, Math.round(all.length / 10));
        if (cut < 1) throw new ConfigError(`${o.data}: ${all.length} dialogue(s): too few to hold out a dev part; give --dev-data/--dev-kb`);
        const train = all.range(0, cut);
        const dev = devStore ?? all.range(cut, all.length);
        if (train.length === 0) throw new ConfigError(`${o.data}: no training dialogue`);
        const bytes = all.bytes + (devStore?.bytes ?? 0);
        out(`read ${train.length} training and ${dev.length} dev dialogues (${(bytes / MIB).toFixed(1)} MiB as word ids, ${((Date.now() - t0) / 1000).toFixed(1)}s)`);
        const bar = progress('train', o.epochs * train.length);
        const r = trainAirModels(train, dev, {
          epochs: o.epochs,
          dim: o.dim,
          hidden: o.hidden,
          match: o.match,
          point: o.point === true,
          order: o.orderedMatch === true,
          batch: o.batch,
          lr: o.lr,
          minCount: o.minCount,
          seed: o.seed,
          threads: o.workers ?? Math.min(2, availableParallelism()),
          onProgress: (d, _t, note) => bar.update(d, note),
          // best-dev checkpoint: the model file always holds the best epoch so far
          onBest: (m) => saveAirModels(o.out, m),
        });
        bar.stop();
        saveAirModels(o.out, r.models);
        const curveFile = o.curve ?? outFileFlag('--curve (default)')(o.out.replace(/(\.dgm)?$/, '.svg'));
        writeFileAtomic(curveFile, trainingCurveSvg(r.curve, r.bestEpoch, `learned AirDialogue models: ${train.length} dialogues, ${o.epochs} epochs (seed ${o.seed})`));
        for (const p of r.curve) out(`epoch ${p.epoch}: train LM ${p.trainLm.toFixed(4)}  dev LM ${p.devLm.toFixed(4)}  dev state ${p.devState.toFixed(4)}  (${p.seconds.toFixed(1)}s)`);
        out(`best dev epoch ${r.bestEpoch}; vocabulary ${r.models.vocab.size}; wrote ${o.out} and ${curveFile} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
      }),
    );

  dataAndKbFlags(
    cmd
      .command('eval')
      .description('Table 8 of the paper: perplexity, BLEU and state accuracy (name, flight, action) given the true dialogue (streams the files)')
      .requiredOption('--model <file>', 'model file written by `airdialogue train`'),
  )
    .option('--max-dialogues <n>', 'dialogues evaluated: the first n lines of --data (default: all)', intFlag('--max-dialogues', 1))
    .option('--no-bleu', 'skip BLEU (greedy decoding of every turn)')
    .option('--json', 'print the report as JSON')
    .action(
      action(async (o: { model: string; data: string; kb: string; maxDialogues?: number; bleu: boolean; json?: boolean }) => {
        const { loadAirModels, evaluateAirModels } = await import('../../testbeds/airdialogue/learned/train.js');
        const m = loadAirModels(o.model);
        const { countLines } = await import('../../core/files.js');
        // Evaluation is slow (a forward pass per dialogue, greedy decoding for BLEU): progress in dialogues, counted first.
        const total = Math.min(countLines(o.data), o.maxDialogues ?? Infinity);
        const bar = progress('eval', total, { quiet: total < 500 });
        const r = evaluateAirModels(m, airExamples(o.data, o.kb, o.maxDialogues !== undefined ? { maxLines: o.maxDialogues } : {}), { bleu: o.bleu, onProgress: (d) => bar.update(d) });
        bar.stop();
        if (o.json) {
          out(JSON.stringify(r));
          return;
        }
        const f = (x: number) => x.toFixed(4);
        const pc = (x: number) => (100 * x).toFixed(2) + '%';
        out(`dialogues ${r.dialogues}`);
        out(`perplexity  customer ${f(r.perplexity.customer)}  agent ${f(r.perplexity.agent)}  both ${f(r.perplexity.both)}`);
        if (o.bleu) out(`BLEU-4      customer ${r.bleu.customer.toFixed(2)}  agent ${r.bleu.agent.toFixed(2)}  both ${r.bleu.both.toFixed(2)}`);
        out(`accuracy    name ${pc(r.accuracy.name)}  flight ${pc(r.accuracy.flight)}  action ${pc(r.accuracy.status)}  state ${pc(r.accuracy.state)}`);
        out(`score       scaled total ${f(r.score.total)}  exact total ${f(r.score.exact)}`);
      }),
    );

  cmd
    .command('rl')
    .description('self-play RL of the learned agent against the learned customer: REINFORCE with a value baseline, reward = scaled score, 3 supervised updates per RL update')
    .requiredOption('--init <file>', 'supervised models (`airdialogue train`)')
    .requiredOption('--out <file>', 'model file to write (.dgm)', outFileFlag('--out'))
    .requiredOption('--episodes <n>', 'self-play episodes', intFlag('--episodes', 1, 100_000_000))
    .requiredOption('--data <file>', 'training dialogues for the supervised updates (JSON Lines)', inputFlag('--data'))
    .requiredOption('--kb <file>', 'KB file aligned with --data', inputFlag('--kb'))
    .option('--batch <n>', 'episodes per REINFORCE update', intFlag('--batch', 1, 100_000), 8)
    .option('--lr <x>', 'Adam learning rate', floatFlag('--lr', 1e-7, 10), 0.0005)
    .option('--supervised-per-rl <n>', 'supervised updates after each RL update', intFlag('--supervised-per-rl', 0, 1000), 3)
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .option('--ood <k>', 'context setting of the self-play episodes (0, 1, 2)', oodFlag, 0)
    .option('--workers <n>', 'threads playing each update\'s episodes and computing its gradients; the same model for any n (default: 2, or 1 on a 1-core machine or under 200 episodes; 1 = no worker)', intFlag('--workers', 1, 64))
    .action(
      action(async (o: { init: string; out: string; episodes: number; data: string; kb: string; batch: number; lr: number; supervisedPerRl: number; seed: number; ood: 0 | 1 | 2; workers?: number }) => {
        const { loadAirModels, saveAirModels } = await import('../../testbeds/airdialogue/learned/train.js');
        const { rlTrain } = await import('../../testbeds/airdialogue/learned/rl.js');
        const { LearnedStore } = await import('../../testbeds/airdialogue/learned/data.js');
        const m = loadAirModels(o.init);
        const read = streamExamples('read', o.data, o.kb);
        const supervised = LearnedStore.from(read.examples);
        read.stop();
        const bar = progress('rl', o.episodes);
        const t0 = Date.now();
        const { curve } = rlTrain(m, { episodes: o.episodes, batch: o.batch, lr: o.lr, supervisedPerRl: o.supervisedPerRl, supervised, seed: o.seed, ood: o.ood, threads: o.workers ?? (o.episodes < 200 ? 1 : Math.min(2, availableParallelism())), onProgress: (d, _t, note) => bar.update(d, note) });
        bar.stop();
        saveAirModels(o.out, m);
        const tenth = Math.max(1, Math.floor(curve.length / 10));
        const mean = (xs: readonly { reward: number }[]) => xs.reduce((a, p) => a + p.reward, 0) / Math.max(1, xs.length);
        out(`mean episode reward: first ${tenth} update(s) ${mean(curve.slice(0, tenth)).toFixed(4)}, last ${tenth} ${mean(curve.slice(-tenth)).toFixed(4)}`);
        out(`wrote ${o.out} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
      }),
    );

  cmd
    .command('tables')
    .description("the paper's Tables 8-10 for the learned agents (the paper's figures beside ours where the setting is the same) as Markdown, LaTeX, SVG and JSON")
    .requiredOption('--model <file>', 'models trained on the synthesized training split')
    .requiredOption('--data <dir>', 'folder of `airdialogue splits` (dev_/test_ data and kb files)', inputFlag('--data'))
    .addOption(alias('--splits <dir>', 'data'))
    .option('--rl-model <file>', 'the synthesized models after `airdialogue rl` (default: none, no RL row)')
    .option('--real-model <file>', 'models trained on the real AirDialogue sample (default: none, no real-data row)')
    .option('--real-data <dir>', 'folder with the real dev_data.json / dev_kb.json (default: none)', inputFlag('--real-data'))
    .option('--max-real-dialogues <n>', 'real dev dialogues read: the first n lines (default: all; the full release has 40,363)', intFlag('--max-real-dialogues', 1))
    .option('--episodes <n>', 'self-play dialogues per row', intFlag('--episodes', 1, 10_000_000), 1000)
    .addOption(alias('--n <k>', 'episodes', intFlag('--n', 1, 10_000_000)))
    .option('--seed <n>', 'random seed', intFlag('--seed', 0), 1)
    .requiredOption('--out <dir>', 'output folder (tables.md, tables.tex, tables.svg, tables.json)', outFolderFlag('--out'))
    .action(
      action(async (o: { model: string; data: string; rlModel?: string; realModel?: string; realData?: string; maxRealDialogues?: number; episodes: number; seed: number; out: string }) => {
        const { loadAirModels } = await import('../../testbeds/airdialogue/learned/train.js');
        const { airTables, airTablesLatex, airTablesMarkdown, airTablesSvg } = await import('../../testbeds/airdialogue/learned/tables.js');
        // Each split whole, as the tables take arrays: the full release's dev files (40,363 dialogues) take about 0.3 GB as objects.
        const split = (dir: string, name: string, max?: number) => {
          const read = streamExamples(`read ${name}`, join(dir, `${name}_data.json`), join(dir, `${name}_kb.json`), max !== undefined ? { maxLines: max } : {});
          const examples = [...read.examples];
          read.stop();
          return examples;
        };
        const t = airTables({
          syn: loadAirModels(o.model),
          synDev: split(o.data, 'dev'),
          synTest: split(o.data, 'test'),
          ...(o.rlModel ? { rl: loadAirModels(o.rlModel) } : {}),
          ...(o.realModel ? { real: loadAirModels(o.realModel) } : {}),
          ...(o.realData ? { realDev: split(o.realData, 'dev', o.maxRealDialogues) } : {}),
          n: o.episodes,
          seed: o.seed,
          onStep: (w) => process.stderr.write(`${w}\n`),
        });
        const md = airTablesMarkdown(t);
        writeFileAtomic(join(o.out, 'tables.md'), md);
        writeFileAtomic(join(o.out, 'tables.tex'), airTablesLatex(t));
        writeFileAtomic(join(o.out, 'tables.svg'), airTablesSvg(t));
        writeFileAtomic(join(o.out, 'tables.json'), JSON.stringify(t) + '\n');
        process.stdout.write(md);
        out(`wrote ${join(o.out, 'tables.md')}, tables.tex, tables.svg and tables.json`);
      }),
    );
}
