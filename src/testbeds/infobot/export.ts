/**
 * KB-InfoBot dialog records: KB-InfoBot's release has no dialog corpus (its dialogs are simulated),
 * so dialogym defines one — JSON lines, one dialog per line (`schemas/infobot-dialogs.schema.json`):
 * the environment, the KB's seed and the episode's, the user's goal, the turns (the user's utterance
 * with its dialog act, the agent's act) and the outcome. `export` writes them from played
 * `infobot-*` episodes; `readInfoBotDialogs` reads them back.
 *
 * An `infobot-*` record keeps only the last observation (the user's last utterance), so the
 * exporter replays the episode — the environment is seeded: the same seed and actions give the
 * same dialog acts — and checks the replay ends as the record says (last utterance, success,
 * reward). When a person or an LLM voice said the user's turns, the record keeps their words
 * (`userWords`, one per user turn): the dialog record has those words with the acts the replay
 * gives. An episode played with other environment options does not replay and is refused with the
 * reason.
 */
import { join } from 'node:path';
import { FormatError } from '../../core/errors.js';
import { readLines, writeFileAtomic } from '../../core/files.js';
import { parseJsonText } from '../../formats/json-text.js';
import { checkSchema } from '../../formats/schema.js';
import { isToolCall, make, type DatasetExport, type DatasetWritten, type Env, type RecordedEpisode } from '../../env/env.js';
import { episodeSteps } from '../../env/episode.js';
import type { InfoBotAction, UserAct } from './acts.js';
import { infoBotActionOfTool } from './tools.js';

/**
 * One turn of a KB-InfoBot dialog record: the user's utterance and its act, or the agent's act.
 *
 * @example
 * ```ts
 * import type { InfoBotTurn } from 'dialogym/infobot';
 * const t: InfoBotTurn = { speaker: 'agent', act: { act: 'request', slot: 'actor' } };
 * ```
 */
export type InfoBotTurn = { readonly speaker: 'user'; readonly text: string; readonly act: UserAct } | { readonly speaker: 'agent'; readonly act: InfoBotAction };

/**
 * One KB-InfoBot dialog record (a line of `infobot-dialogs.jsonl`).
 *
 * @example
 * ```ts
 * import { readInfoBotDialogs, type InfoBotDialog } from 'dialogym/infobot';
 * const dialogs: InfoBotDialog[] = readInfoBotDialogs('collected/infobot-dialogs.jsonl');
 * console.log(dialogs[0]?.goal.title, dialogs[0]?.turns.length);
 * ```
 */
export interface InfoBotDialog {
  readonly env: string;
  /** Seed of the generated KB (the environments' `kbSeed`, 1 by default). */
  readonly kbSeed: number;
  readonly seed: number;
  readonly trial: number;
  readonly goal: { readonly target: number; readonly title: string; readonly known: Readonly<Record<string, string>> };
  readonly turns: readonly InfoBotTurn[];
  readonly success: boolean;
  readonly reward: number;
}

/**
 * The file an export writes.
 *
 * @example
 * ```ts
 * import { INFOBOT_DIALOGS_FILE } from 'dialogym/infobot';
 * console.log(INFOBOT_DIALOGS_FILE); // 'infobot-dialogs.jsonl'
 * ```
 */
export const INFOBOT_DIALOGS_FILE = 'infobot-dialogs.jsonl';

/** The agent act of a recorded action (an InfoBotAction or a tool call). */
function agentAct(where: string, i: number, a: unknown): InfoBotAction {
  try {
    return isToolCall(a) ? infoBotActionOfTool(a) : (a as InfoBotAction);
  } catch (e) {
    throw new FormatError(where, undefined, `actions[${i}]: ${(e as Error).message}`);
  }
}

/** Replays a recorded `infobot-*` episode into its dialog record; a FormatError at `where` when it does not replay as recorded. */
function replay(where: string, e: RecordedEpisode): InfoBotDialog {
  if (e.options !== undefined) throw new FormatError(where, undefined, `played with environment options (fingerprint ${e.options}): the dialog is replayed from the seed, which needs the default options`);
  const env = make(e.env) as Env<{ utterance: string }, unknown>;
  const user = env as unknown as { readonly userAct: UserAct };
  const words = e.userWords;
  if (words !== undefined && words.length !== e.actions.length + 1) throw new FormatError(where, undefined, `userWords has ${words.length} turns, the episode ${e.actions.length + 1} user turns (one per action and the opening)`);
  /** The user's words of user turn `k`: the voice's when the record keeps them, else the simulated user's. */
  const said = (k: number, utterance: string): string => words?.[k] ?? utterance;
  // The episode loop, driven by the recorded actions (at most as many steps as there are actions).
  const steps = episodeSteps(env, { reset: { seed: e.seed, variant: e.trial }, maxSteps: e.actions.length });
  let it = steps.next();
  const goal = (it.done ? it.value.resetInfo : it.value.info)['goal'] as InfoBotDialog['goal'];
  let last = it.value.obs;
  const turns: InfoBotTurn[] = [{ speaker: 'user', text: said(0, last.utterance), act: user.userAct }];
  let i = 0;
  for (; !it.done; i++) {
    const a = e.actions[i];
    const act = agentAct(where, i, a);
    try {
      it = steps.next(a);
    } catch (err) {
      throw new FormatError(where, undefined, `actions[${i}]: ${(err as Error).message}`);
    }
    turns.push({ speaker: 'agent', act });
    last = it.value.obs;
    turns.push({ speaker: 'user', text: said(i + 1, last.utterance), act: user.userAct });
  }
  if (i < e.actions.length) throw new FormatError(where, undefined, `actions[${i}]: the replayed episode ended before it (not a simulated-user episode of ${e.env}?)`);
  const { ended, reward } = it.value;
  const success = ended && it.value.info['success'] === true;
  const recorded = (e.observation as { utterance?: unknown } | null)?.utterance;
  const lastSaid = said(e.actions.length, last.utterance);
  if (!ended || lastSaid !== recorded || success !== e.success || Math.abs(reward - e.reward) > 1e-9) {
    const whose = words === undefined ? ': a person or an LLM voice played the user, whose words the record does not keep' : '';
    throw new FormatError(where, undefined, `the episode does not replay as recorded (last utterance ${JSON.stringify(lastSaid)} vs ${JSON.stringify(recorded)})${whose}`);
  }
  return { env: e.env, kbSeed: 1, seed: e.seed, trial: e.trial, goal, turns, success, reward: e.reward };
}

/**
 * The KB-InfoBot dialog records exporter (the `dataset` hook of `infobot-*-v1`): replays each
 * episode and writes `infobot-dialogs.jsonl` into the folder, atomically.
 *
 * @example
 * ```ts
 * import { envDataset } from 'dialogym';
 * envDataset('infobot-medium-v1')?.format; // 'KB-InfoBot dialog records (JSON lines)'
 * ```
 */
export const infoBotDataset: DatasetExport = {
  format: 'KB-InfoBot dialog records (JSON lines)',
  write(episodes, out): DatasetWritten {
    const dialogs = episodes.map(({ where, episode }) => replay(where, episode));
    if (dialogs.length === 0) return { files: [], dialogs: 0, skipped: [] };
    const file = join(out, INFOBOT_DIALOGS_FILE);
    writeFileAtomic(file, dialogs.map((d) => JSON.stringify(d) + '\n').join(''));
    return { files: [file], dialogs: dialogs.length, skipped: [] };
  },
};

/**
 * Reads a KB-InfoBot dialog records file: every line checked against
 * `schemas/infobot-dialogs.schema.json` (empty lines skipped); a bad line throws a FormatError
 * `file:line: field: reason`.
 *
 * @example
 * ```ts
 * import { readInfoBotDialogs } from 'dialogym/infobot';
 * const won = readInfoBotDialogs('collected/infobot-dialogs.jsonl').filter((d) => d.success).length;
 * ```
 */
export function readInfoBotDialogs(file: string): InfoBotDialog[] {
  const out: InfoBotDialog[] = [];
  for (const { text, line } of readLines(file)) {
    if (text.trim() === '') continue;
    const value = parseJsonText(text, file, line);
    const issue = checkSchema('infobot-dialogs', value);
    if (issue) throw new FormatError(file, line, issue.reason);
    out.push(value as InfoBotDialog);
  }
  return out;
}
