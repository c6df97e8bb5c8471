/**
 * Played AirDialogue episodes (`airdialogue-v2` transcripts, a study's transcripts) as the
 * release's two aligned JSON Lines files: a data file (the customer's intent, the agent's action,
 * the expected action, the dialogue as `customer: …` / `agent: …` lines, `correct_sample`) and a
 * kb file (the flight table and the reservation), line i of one with line i of the other, as
 * `airdialogue score`, `logic` and `train` read them. The episode's last observation holds the
 * dialogue and the agent's context, its `goal` the customer's intent (an `airdialogue-v1` record
 * has none: it is left out, with the reason).
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/files.js';
import { formatAirLines, type Action, type DataLine, type Intent, type KbLine } from '../../formats/airdialogue.js';
import type { DatasetExport, DatasetWritten } from '../../env/env.js';
import { FormatError } from '../../core/errors.js';
import { expectedAction } from './logic.js';
import { scoreAction } from './scorer.js';
import { airMoveOf } from './tools.js';
import type { AgentMove } from './policies.js';
import type { ToolCall } from '../../env/env.js';

/**
 * The data and kb file names of a collected set (as the release's `<split>_data.json`, `<split>_kb.json`).
 *
 * @example
 * ```ts
 * import { COLLECTED_AIR_FILES } from 'dialogym/airdialogue';
 * console.log(COLLECTED_AIR_FILES.data, COLLECTED_AIR_FILES.kb); // collected_data.json collected_kb.json
 * ```
 */
export const COLLECTED_AIR_FILES = { data: 'collected_data.json', kb: 'collected_kb.json' } as const;

/**
 * Whether the agent's action is right as the release marks `correct_sample`: the expected status
 * and name (case and spaces aside) and an exactly matching flight.
 *
 * @example
 * ```ts
 * import type { Action, KbLine } from 'dialogym';
 * import { correctSample, scoreAction } from 'dialogym/airdialogue';
 * declare const action: Action, expected: Action, kb: KbLine;
 * correctSample(action, expected, scoreAction(action, expected, kb).exact.flight);
 * ```
 */
export function correctSample(action: Action, expected: Action, exactFlight: number): boolean {
  return action.status === expected.status && action.name.trim().toLowerCase() === expected.name.trim().toLowerCase() && exactFlight === 1;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The AirDialogue dataset exporter (the `dataset` hook of `airdialogue-v1` and `-v2`): writes
 * `collected_data.json` and `collected_kb.json` into the folder, atomically, one line per episode
 * that ended with an action. Episodes cut off before any action, without the customer's intent
 * (`airdialogue-v1`), or whose action names a flight the table lacks, are left out (`skipped`).
 *
 * @example
 * ```ts
 * import { envDataset } from 'dialogym';
 * envDataset('airdialogue-v2')?.format; // 'AirDialogue JSON lines'
 * ```
 */
export const airDataset: DatasetExport = {
  format: 'AirDialogue JSON lines',
  write(episodes, out): DatasetWritten {
    const data: DataLine[] = [];
    const kbs: KbLine[] = [];
    const skipped: string[] = [];
    for (const { where, episode } of episodes) {
      const obs = episode.observation as { context?: KbLine; history?: unknown } | null;
      if (obs === null || typeof obs !== 'object' || !Array.isArray(obs.history) || obs.context === undefined || !Array.isArray(obs.context.kb)) {
        throw new FormatError(where, undefined, 'the record has no AirDialogue dialog: its "observation" needs "context" (kb, reservation) and "history"');
      }
      const intent = episode.goal as Intent | undefined;
      if (intent === undefined || intent === null || typeof intent !== 'object') {
        skipped.push(`${where}: no customer intent in the record ("goal": airdialogue-v1 records carry none; play airdialogue-v2)`);
        continue;
      }
      const last = episode.actions[episode.actions.length - 1];
      let action: Action | undefined;
      try {
        action = last === undefined ? undefined : airMoveOf(last as AgentMove | ToolCall | string).action;
      } catch (e) {
        throw new FormatError(where, undefined, `actions[${episode.actions.length - 1}]: ${(e as Error).message}`);
      }
      if (action === undefined) {
        skipped.push(`${where}: no final action (the episode was cut off)`);
        continue;
      }
      const kb: KbLine = { kb: obs.context.kb, reservation: obs.context.reservation };
      // The data files name flights of their KB line only (their reader refuses another): an action on a number the table lacks (a person's typo, judged a failure) is left out.
      const stray = action.flight.find((n) => !kb.kb.some((f) => f.flight_number === n));
      if (stray !== undefined) {
        skipped.push(`${where}: the final action names flight ${stray}, which is not in the flight table (AirDialogue's data files name flights of their KB line only)`);
        continue;
      }
      const expected = expectedAction(intent, kb);
      const dialogue: string[] = [];
      obs.history.forEach((t: unknown, i) => {
        const turn = t as { speaker?: unknown; text?: unknown } | null;
        if (turn === null || typeof turn !== 'object' || typeof turn.text !== 'string' || (turn.speaker !== 'user' && turn.speaker !== 'bot')) {
          throw new FormatError(where, undefined, `observation.history[${i}]: expected {"speaker": "user"|"bot", "text": string}`);
        }
        const text = oneLine(turn.text);
        if (text !== '') dialogue.push(`${turn.speaker === 'user' ? 'customer' : 'agent'}: ${text}`);
      });
      const correct = correctSample(action, expected, scoreAction(action, expected, kb).exact.flight);
      data.push({ intent, action, expected_action: expected, dialogue, correct_sample: correct });
      kbs.push(kb);
    }
    if (data.length === 0) return { files: [], dialogs: 0, skipped };
    const dataFile = join(out, COLLECTED_AIR_FILES.data);
    const kbFile = join(out, COLLECTED_AIR_FILES.kb);
    writeFileAtomic(dataFile, formatAirLines(data));
    writeFileAtomic(kbFile, formatAirLines(kbs));
    return { files: [dataFile, kbFile], dialogs: data.length, skipped };
  },
};
