/** `dialogym evaluate --env <id> (--agent-cmd "<cmd>" | --agent-url URL | --agent <model>)`: score an agent online through the agent protocol. */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { action, inputFlag, intFlag, keyValueFlag, keyValues, out, outFileFlag } from '../run.js';
import { inShard, shardItems, type ShardItem } from '../../core/shard.js';
import type { EpisodeRecord } from '../../evaluation/evaluate.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../../agents/protocol.js';
import { RESTAURANT_MAX_TURNS } from '../../testbeds/restaurant/online/env.js';
import { shardOf, shardOptions, writeShard, wholeRun, type MergedRun, type ShardFlags } from '../shard.js';
import { SUMMARY } from './summaries.js';
import { agentWayOf, openWay } from '../agent-flags.js';
import { llmConnectionOptions, llmPrices, openLlmUser, type LlmFlags } from '../llm-flags.js';
import type { LlmStats } from '../../llm/client.js';

interface EvaluateFlags extends LlmFlags {
  env: string;
  envOption: string[];
  agentCmd?: string;
  agentUrl?: string;
  agent?: string;
  agentLlm?: string;
  userLlm?: string;
  userPrompt?: string;
  resume?: string;
  kb?: string;
  candidates?: string;
  episodes: number;
  seed: number;
  trials: number;
  timeout: number;
  startupTimeout: number;
  concurrency: number;
  maxReplyBytes: number;
  maxTurns?: number;
  json?: boolean;
  transcripts?: string;
  showFailures: number;
}

export function registerEvaluate(program: Command): void {
  const cmd = program
    .command('evaluate')
    .description(SUMMARY.evaluate)
    .requiredOption('--env <id>', 'environment id (restaurant-task5-v1, dstc6-task1-tst3-v1, airdialogue-v1, …)')
    .option('--agent-cmd <command>', 'agent process: one JSON request per line on its stdin, one JSON reply per line on its stdout (required: one of --agent-cmd, --agent-url, --agent, --agent-llm)')
    .option('--agent-url <url>', 'agent endpoint: each request is POSTed as JSON, the body of the reply is the agent message (required: one of the four)')
    .option('--agent <name|file>', "one of dialogym's agents in this process (rules, a model file, an AirDialogue policy) (required: one of the four)")
    .option('--agent-llm <model>', 'a language model behind an OpenAI-compatible endpoint (--llm-url) plays the agent: the testbed\'s prompt, the dialog as messages, the tools (docs/llm.md) (required: one of the four)')
    .option('--env-option <key=value>', 'an option of the environment (userStyle=varied on the -v2 envs, maxTurns=40; JSON values as JSON, others strings), checked against its schema (schemas/env-*.schema.json); repeatable (default: none)', keyValueFlag('--env-option'), [])
    .option('--kb <file>', 'KB text file the restaurant environment uses (and the in-process model recognises), e.g. the original dialog-babi-kb-all.txt (default: the environment\'s generated KB)', inputFlag('--kb'))
    .option('--candidates <file>', 'candidates file for an in-process ranking model (default for a model file: the candidates it stores)', inputFlag('--candidates'))
    .option('--episodes <n>', 'tasks (episode seeds seed … seed+n-1)', intFlag('--episodes', 1), 100)
    .option('--seed <n>', 'seed of the first episode', intFlag('--seed', 0), 1)
    .option('--trials <k>', 'trials per task (pass^1 … pass^k)', intFlag('--trials', 1, 100), 1)
    .option('--timeout <ms>', 'per-turn reply timeout of the agent', intFlag('--timeout', 1), 5000)
    .option('--startup-timeout <ms>', 'extra time for the first reply of a started agent process (it loads its model)', intFlag('--startup-timeout', 0), 30000)
    .option('--concurrency <n>', 'episodes in flight: agent processes (--agent-cmd), HTTP requests (--agent-url) or in-process agents; the records are the same whatever n', intFlag('--concurrency', 1, 1024), 1)
    .option('--max-reply-bytes <n>', 'longest reply line (--agent-cmd) or body (--agent-url): a longer one fails the episode as `reply too long`', intFlag('--max-reply-bytes', 1), DEFAULT_MAX_REPLY_BYTES)
    .option('--max-turns <n>', `agent turns after which an episode ends (any env: its own limit where its testbed has one, else a generic wrapper; AirDialogue: utterances of both sides) (default: the environment's, ${RESTAURANT_MAX_TURNS} for the restaurant envs)`, intFlag('--max-turns', 1))
    .option('--json', 'print the summary as JSON')
    .option('--transcripts <file>', 'write one JSON line per episode (actions, last observation, outcome; goal, failure detail and how the user read each turn where the environment gives them), appended as each episode ends, in episode order once the run is done (default: none)', outFileFlag('--transcripts'))
    .option('--show-failures <n>', 'print the first n failed episodes turn by turn (the read of each agent turn, the reason and detail, a marker at the turn that went wrong; on stderr with --json)', intFlag('--show-failures', 0), 0)
    .option('--resume <file>', 'continue an interrupted run from its transcripts: the episodes in the file are kept, the others played and appended to it (default: none)')
    .option('--user-llm <model>', "a language model (same --llm-* flags) says the simulated user's turns in its own words, told its goal and, each turn, what the environment's user does; the environment still judges (restaurant, DSTC6, AirDialogue -v2 envs) (default: the environment's own words)")
    .option('--user-prompt <file>', "the LLM user's system prompt (default: prompts/user-<testbed>.md of the package)");
  llmConnectionOptions(cmd);
  shardOptions(cmd).action(
    action(async (o: EvaluateFlags & ShardFlags) => {
      const shard = shardOf(o);
      const way = agentWayOf(o);
      if (o.resume !== undefined && shard) throw new ConfigError('--resume continues a whole run; a shard is re-run with its own --shard (merge reads the shards)');
      if (o.resume !== undefined && o.transcripts !== undefined && o.transcripts !== o.resume) throw new ConfigError(`--resume appends to the file it reads (${o.resume}); drop --transcripts or give the same file`);
      const { TESTBEDS, loadTestbeds, testbedOf } = await import('../../testbeds/index.js');
      await loadTestbeds();
      const testbed = testbedOf(o.env);
      const { evaluate } = await import('../../evaluation/evaluate.js');
      const { readKb } = await import('../../testbeds/restaurant/kb-dialects.js');
      const { progress: startProgress } = await import('../progress.js');
      const envOptions: Record<string, unknown> = keyValues(o.envOption);
      /** Sets an option a flag of its own gives, refusing the same key from --env-option. */
      const setOption = (key: string, flag: string, value: unknown): void => {
        if (key in envOptions) throw new ConfigError(`--env-option ${key}: given by ${flag} too; give it once`);
        envOptions[key] = value;
      };
      // The environments refuse options they do not read; say it with the flag's name.
      if (o.kb !== undefined && testbed?.kbOption === undefined) throw new ConfigError(`--kb: ${o.env} reads no restaurant KB (only the ${TESTBEDS.filter((t) => t.kbOption !== undefined).map((t) => `${t.name}-*`).join(' and ')} environments do)`);
      if (o.kb !== undefined) setOption(testbed?.kbOption as string, '--kb', readKb(o.kb).restaurants);
      // The turn limit as the testbed declares it (its own options; KB-InfoBot's: its user simulator's), else the generic wrapper (TurnLimit).
      const ownLimit = o.maxTurns !== undefined ? testbed?.turnLimit?.(o.maxTurns) : undefined;
      for (const [key, value] of Object.entries(ownLimit ?? {})) setOption(key, '--max-turns', value);
      const wrapperLimit = o.maxTurns !== undefined && ownLimit === undefined ? o.maxTurns : undefined;
      // Checked (schema, unknown keys) before the agent starts or --transcripts is opened: a bad option costs nothing.
      const { make } = await import('../../env/env.js');
      make(o.env, envOptions);
      const transport = await openWay(way, o, o.seed);
      if (o.userPrompt !== undefined && o.userLlm === undefined) throw new ConfigError('--user-prompt is the prompt of --user-llm: give --user-llm too');
      const userVoice = o.userLlm !== undefined ? await openLlmUser(o.userLlm, o, o.seed) : undefined;
      // Transcripts (and --resume's file) get each record as its episode ends, so an interrupted run loses none.
      const file = o.resume ?? (shard ? undefined : o.transcripts);
      const { TranscriptLog } = await import('../transcript-log.js');
      const log = file !== undefined ? new TranscriptLog(file, o.resume !== undefined, llmPrices(o)) : undefined;
      const done = log?.records ?? [];
      const progress = startProgress('episodes', shardItems(shard, o.episodes).length * o.trials - done.length);
      // One item per task (k = its index; seed + k): the records of its trials.
      const items: ShardItem[] = [];
      try {
        const { records } = await evaluate(o.env, transport, {
          envOptions,
          ...(wrapperLimit !== undefined ? { maxTurns: wrapperLimit } : {}),
          episodes: o.episodes,
          seed: o.seed,
          trials: o.trials,
          concurrency: o.concurrency,
          timeoutMs: o.timeout,
          include: (k) => inShard(shard, k),
          done,
          ...(userVoice ? { userVoice } : {}),
          ...(log ? { onFinish: (rec: EpisodeRecord) => log.append(rec) } : {}),
          onEpisode: (_rec, n) => progress.update(n),
        });
        for (const rec of records) {
          if (rec.trial === 0) items.push({ k: rec.episode, records: [] });
          (items[items.length - 1]?.['records'] as EpisodeRecord[]).push(rec);
        }
      } finally {
        progress.stop();
        log?.close();
        await transport.close?.();
      }
      const llm = 'client' in transport ? (transport.client as { stats(): LlmStats }).stats() : undefined;
      if (shard) writeShard(o, 'evaluate', o.episodes, items);
      else await finishEvaluate(wholeRun(o, items), llm, userVoice?.client.stats());
    }),
  );
}

/**
 * Writes the transcripts (in episode order) and prints the summary of a whole `evaluate`
 * (unsharded, or merged from its shards); `llm`: what the LLM client did (requests sent, cache
 * hits, retries, latencies), when the agent was one.
 */
export async function finishEvaluate(run: MergedRun, llm?: LlmStats, userLlm?: LlmStats): Promise<void> {
  const o = run.options as unknown as EvaluateFlags;
  const { summarizeEpisodes } = await import('../../evaluation/evaluate.js');
  const { writeTranscripts } = await import('../transcript-log.js');
  const { costOf } = await import('../../llm/usage.js');
  const records = run.items.flatMap((it) => it['records'] as EpisodeRecord[]);
  const prices = llmPrices(o);
  const file = o.resume ?? o.transcripts;
  if (file !== undefined) writeTranscripts(file, records, prices);
  const s = summarizeEpisodes({ env: o.env, episodes: o.episodes, trials: o.trials, seed: o.seed }, records);
  const cost = s.usage ? costOf(s.usage, prices) : undefined;
  const userCost = s.userUsage ? costOf(s.userUsage, prices) : undefined;
  if (o.json) out(JSON.stringify({ ...s, ...(cost !== undefined ? { cost } : {}), ...(userCost !== undefined ? { userCost } : {}), ...(llm ? { llm } : {}), ...(userLlm ? { userLlm } : {}) }));
  else {
    out(`${s.env}: ${s.episodes} tasks × ${s.trials} trials (seed ${s.seed})`);
    out(`success ${s.success.toFixed(4)}  ${s.passK.map((p, i) => `pass^${i + 1} ${p.toFixed(4)}`).join('  ')}`);
    out(`avg turns ${s.avgTurns.toFixed(2)}  avg reward ${s.avgReward.toFixed(4)}`);
    const f = Object.entries(s.failures).sort((a, b) => b[1] - a[1]);
    out(`failures ${f.length === 0 ? 'none' : f.map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    if (s.usage) out(`tokens in ${s.usage.tokensIn}  out ${s.usage.tokensOut}  (${s.usage.requests} replies)${cost !== undefined ? `  cost ${cost.toFixed(4)}` : ''}`);
    if (llm) out(`requests sent ${requestLine(llm)}`);
    if (s.userUsage) out(`user tokens in ${s.userUsage.tokensIn}  out ${s.userUsage.tokensOut}  (${s.userUsage.requests} turns)${userCost !== undefined ? `  cost ${userCost.toFixed(4)}` : ''}`);
    if (userLlm) out(`user requests sent ${requestLine(userLlm)}`);
  }
  const shown = records.filter((r) => !r.success).slice(0, o.showFailures ?? 0);
  if (shown.length > 0) {
    const { describeEpisode } = await import('../../evaluation/show.js');
    const text = shown.map((r) => describeEpisode(r).join('\n')).join('\n\n');
    if (o.json) process.stderr.write(`${text}\n`);
    else out(`\n${text}`);
  }
}

/** What an LLM client did, on one line. */
function requestLine(s: LlmStats): string {
  const ms = (x: number | null): string => (x === null ? '-' : `${Math.round(x)} ms`);
  return `${s.sent}  cache hits ${s.cacheHits}  retries ${s.retries}  failed ${s.failed}  latency p50 ${ms(s.latencyP50)}  p95 ${ms(s.latencyP95)}`;
}
