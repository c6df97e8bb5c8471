/** `dialogym evaluate --env <id> (--agent-cmd "<cmd>" | --agent-url URL | --agent <model>)`: score an agent online through the agent protocol (the library's `evaluateRun`, src/runs/evaluate.ts). */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { action, inputFlag, intFlag, keyValueFlag, keyValues, out, outFileFlag } from '../run.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../../agents/protocol.js';
import { loadTestbeds } from '../../testbeds/index.js';
import { turnLimitOf } from '../../env/turn-limit.js';
import { kbOf } from '../../runs/kb.js';
import { evaluateRun, type EvaluateRunOptions, type EvaluateRunResult } from '../../runs/evaluate.js';
import type { LlmStats } from '../../llm/client/client.js';
import { describeEpisode } from '../../evaluation/show.js';
import { EVALUATE_DEFAULTS } from '../../evaluation/evaluate.js';
import { progress } from '../progress.js';
import { runVerb, shardOptions, type ShardFlags, type VerbRun } from '../shard.js';
import { SUMMARY } from './summaries.js';
import { agentWayOf } from '../agent-flags.js';
import { llmConnectionOptions, type LlmFlags } from '../llm-flags.js';

// The testbeds: their environments, agents, turn limits and KB options (the run reads the registries).
await loadTestbeds();

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
    .option('--episodes <n>', 'tasks (episode seeds seed … seed+n-1)', intFlag('--episodes', 1), EVALUATE_DEFAULTS.episodes)
    .option('--seed <n>', 'seed of the first episode', intFlag('--seed', 0), EVALUATE_DEFAULTS.seed)
    .option('--trials <k>', 'trials per task (pass^1 … pass^k)', intFlag('--trials', 1, 100), EVALUATE_DEFAULTS.trials)
    .option('--timeout <ms>', 'per-turn reply timeout of the agent', intFlag('--timeout', 1), EVALUATE_DEFAULTS.timeoutMs)
    .option('--startup-timeout <ms>', 'extra time for the first reply of a started agent process (it loads its model)', intFlag('--startup-timeout', 0), 30000)
    .option('--concurrency <n>', 'episodes in flight: agent processes (--agent-cmd), HTTP requests (--agent-url) or in-process agents; the records are the same whatever n', intFlag('--concurrency', 1, 1024), EVALUATE_DEFAULTS.concurrency)
    .option('--max-reply-bytes <n>', 'longest reply line (--agent-cmd) or body (--agent-url): a longer one fails the episode as `reply too long`', intFlag('--max-reply-bytes', 1), DEFAULT_MAX_REPLY_BYTES)
    .option('--max-turns <n>', "turns after which an episode ends: the environment's own limit set to n where its testbed declares one (in that limit's unit: agent turns, or utterances of both sides), else a generic wrapper counting agent turns (default: the environment's own limit; none for an environment without one)", intFlag('--max-turns', 1))
    .option('--json', 'print the summary as JSON')
    .option('--transcripts <file>', 'write one JSON line per episode (actions, last observation, outcome; goal, failure detail and how the user read each turn where the environment gives them), appended as each episode ends, in episode order once the run is done (default: none)', outFileFlag('--transcripts'))
    .option('--show-failures <n>', 'print the first n failed episodes turn by turn (the read of each agent turn, the reason and detail, a marker at the turn that went wrong; on stderr with --json)', intFlag('--show-failures', 0), 0)
    .option('--resume <file>', 'continue an interrupted run from its transcripts: the episodes in the file are kept, the others played and appended to it (default: none)')
    .option('--user-llm <model>', "a language model (same --llm-* flags) says the simulated user's turns in its own words, told its goal and, each turn, what the environment's user does; the environment still judges (restaurant, DSTC6, AirDialogue -v2 envs) (default: the environment's own words)")
    .option('--user-prompt <file>', "the LLM user's system prompt (default: prompts/user-<testbed>.md of the package)");
  llmConnectionOptions(cmd);
  shardOptions(cmd).action(action((o: EvaluateFlags & ShardFlags) => runVerb(o, evaluateVerb)));
}

/**
 * The flags as the run's options (the agent's way from the four agent flags, the environment's
 * options from --env-option) and print settings; --env-option may not give a key --kb or
 * --max-turns sets.
 */
function fromFlags(f: Record<string, unknown>): { options: EvaluateRunOptions; print: { json?: true; showFailures?: number } } {
  const o = f as unknown as EvaluateFlags;
  const envOptions: Record<string, unknown> = keyValues(o.envOption ?? []);
  const given = <K extends keyof EvaluateFlags>(...keys: K[]): Partial<Pick<EvaluateFlags, K>> => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<EvaluateFlags, K>>;
  const options: EvaluateRunOptions = {
    env: o.env,
    agent: agentWayOf(o),
    ...(Object.keys(envOptions).length > 0 ? { envOptions } : {}),
    ...given('kb', 'candidates', 'episodes', 'seed', 'trials', 'timeout', 'startupTimeout', 'concurrency', 'maxReplyBytes', 'maxTurns', 'transcripts', 'resume', 'userLlm', 'userPrompt'),
    ...given('llmUrl', 'llmKeyEnv', 'llmTimeout', 'llmRetries', 'llmMaxFailures', 'llmMaxReplyBytes', 'systemPrompt', 'cache', 'priceIn', 'priceOut'),
    ...(o.llmOption !== undefined ? { llmOption: keyValues(o.llmOption) } : {}),
  };
  // The keys --kb and --max-turns set in the environment's options (the run would refuse them too, in its options' words).
  const setBy: Array<[string | undefined, string]> = [[o.kb !== undefined ? kbOf(o.env)?.option : undefined, '--kb'], ...Object.keys(turnLimitOf(o.env, o.maxTurns).options ?? {}).map((k): [string, string] => [k, '--max-turns'])];
  for (const [key, flag] of setBy) if (key !== undefined && key in envOptions) throw new ConfigError(`--env-option ${key}: given by ${flag} too; give it once`);
  return { options, print: { ...(o.json ? { json: true as const } : {}), ...(o.showFailures ? { showFailures: o.showFailures } : {}) } };
}

/** Prints the summary (`--json`: one JSON line) and the first `--show-failures` failed episodes turn by turn (on stderr with `--json`). */
function printEvaluate(r: EvaluateRunResult, print: Record<string, unknown>): void {
  const s = r.summary;
  if (print['json']) out(JSON.stringify(s));
  else {
    out(`${s.env}: ${s.episodes} tasks × ${s.trials} trials (seed ${s.seed})`);
    out(`success ${s.success.toFixed(4)}  ${s.passK.map((p, i) => `pass^${i + 1} ${p.toFixed(4)}`).join('  ')}`);
    out(`avg turns ${s.avgTurns.toFixed(2)}  avg reward ${s.avgReward.toFixed(4)}`);
    const f = Object.entries(s.failures).sort((a, b) => b[1] - a[1]);
    out(`failures ${f.length === 0 ? 'none' : f.map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    if (s.usage) out(`tokens in ${s.usage.tokensIn}  out ${s.usage.tokensOut}  (${s.usage.requests} replies)${s.cost !== undefined ? `  cost ${s.cost.toFixed(4)}` : ''}`);
    if (s.llm) out(`requests sent ${requestLine(s.llm)}`);
    if (s.userUsage) out(`user tokens in ${s.userUsage.tokensIn}  out ${s.userUsage.tokensOut}  (${s.userUsage.requests} turns)${s.userCost !== undefined ? `  cost ${s.userCost.toFixed(4)}` : ''}`);
    if (s.userLlm) out(`user requests sent ${requestLine(s.userLlm)}`);
  }
  const shown = r.records.filter((x) => !x.success).slice(0, (print['showFailures'] as number | undefined) ?? 0);
  if (shown.length > 0) {
    const text = shown.map((x) => describeEpisode(x).join('\n')).join('\n\n');
    if (print['json']) process.stderr.write(`${text}\n`);
    else out(`\n${text}`);
  }
}

/** What an LLM client did, on one line. */
function requestLine(s: LlmStats): string {
  const ms = (x: number | null): string => (x === null ? '-' : `${Math.round(x)} ms`);
  return `${s.sent}  cache hits ${s.cacheHits}  retries ${s.retries}  failed ${s.failed}  latency p50 ${ms(s.latencyP50)}  p95 ${ms(s.latencyP95)}`;
}

/**
 * The verb: the library's `evaluateRun`, its progress (episodes played) and its printer (also
 * `merge`'s). Its shard files before it was a library run recorded its flags (no `agent` way).
 */
export const evaluateVerb: VerbRun<EvaluateRunOptions, EvaluateRunResult> = {
  run: evaluateRun,
  fromFlags,
  print: printEvaluate,
  progress: (total) => progress('episodes', total),
  recordsFlags: (options) => typeof options['agent'] !== 'object',
};
