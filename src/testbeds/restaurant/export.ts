/**
 * Played restaurant episodes (`evaluate --transcripts` lines, a study's transcripts) as a bAbI
 * dialog dataset: the dialog file and the candidates file of the release's layout, ready for
 * `train`, `eval` and `stats`. The last observation of a restaurant episode holds the whole
 * dialog (`history`: user, bot and KB turns), so nothing is replayed.
 */
import { join } from 'node:path';
import type { Turn } from '../../core/dialog.js';
import { SILENCE } from '../../formats/babi.js';
import { FormatError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { formatBabiCandidates, formatBabiDialogs } from '../../formats/babi.js';
import type { DatasetExport, DatasetWritten, RecordedEpisode } from '../../env/env.js';

/** One line of text as a dataset holds it: TABs and line breaks a person typed become spaces, runs of spaces one. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The turns of a played restaurant episode (its last observation's `history`), in the bAbI shape:
 * every bot turn preceded by a user turn (`silence` where the bot spoke twice, or after KB lines),
 * an empty user turn written `silence`, two user turns in a row joined into one, text on one line
 * (TABs and line breaks a person typed become spaces), a last user turn the bot never answered (a
 * cut-off episode) left out. Throws a FormatError at `where` for an observation without a history.
 *
 * @example
 * ```ts
 * import { playedTurns } from 'dialogym/restaurant';
 * playedTurns('t.jsonl:1', { observation: { history: [{ speaker: 'bot', text: 'hello' }] } }, '<SILENCE>');
 * // [{ speaker: 'user', text: '<SILENCE>' }, { speaker: 'bot', text: 'hello' }]
 * ```
 */
export function playedTurns(where: string, episode: Pick<RecordedEpisode, 'observation'>, silence: string): Turn[] {
  const obs = episode.observation as { history?: unknown } | null;
  const history = obs !== null && typeof obs === 'object' ? obs.history : undefined;
  if (!Array.isArray(history)) throw new FormatError(where, undefined, 'the record has no dialog: its "observation" has no "history" array (a restaurant episode\'s last observation)');
  const out: Turn[] = [];
  history.forEach((t: unknown, i) => {
    const turn = t as { speaker?: unknown; text?: unknown } | null;
    if (turn === null || typeof turn !== 'object' || typeof turn.text !== 'string' || (turn.speaker !== 'user' && turn.speaker !== 'bot' && turn.speaker !== 'kb')) {
      throw new FormatError(where, undefined, `observation.history[${i}]: expected {"speaker": "user"|"bot"|"kb", "text": string}`);
    }
    const text = oneLine(turn.text);
    const last = out[out.length - 1];
    if (turn.speaker === 'bot') {
      if (text === '') throw new FormatError(where, undefined, `observation.history[${i}]: an empty bot turn`);
      if (last === undefined || last.speaker !== 'user') out.push({ speaker: 'user', text: silence });
      out.push({ speaker: 'bot', text });
    } else if (turn.speaker === 'user') {
      const said = text === '' ? silence : text;
      // Two user turns in a row (a person wrote twice before the bot answered): one turn, as a bAbI line pairs one user turn with the bot's answer.
      if (last?.speaker === 'user') out[out.length - 1] = { speaker: 'user', text: last.text === silence ? said : said === silence ? last.text : `${last.text} ${said}` };
      else out.push({ speaker: 'user', text: said });
    } else {
      if (last?.speaker === 'user') out.pop();
      if (text !== '') out.push({ speaker: 'kb', text });
    }
  });
  if (out[out.length - 1]?.speaker === 'user') out.pop();
  return out;
}

/**
 * The bAbI dialog file an export of task `task` writes.
 *
 * @example
 * ```ts
 * import { collectedDialogFile } from 'dialogym/restaurant';
 * collectedDialogFile(5); // 'dialog-babi-task5-collected.txt'
 * ```
 */
export function collectedDialogFile(task: number): string {
  return `dialog-babi-task${task}-collected.txt`;
}

/**
 * The candidates file an export writes: every bot utterance of the dialogs once, in order of
 * appearance (the release's name).
 *
 * @example
 * ```ts
 * import { COLLECTED_CANDIDATES_FILE } from 'dialogym/restaurant';
 * console.log(COLLECTED_CANDIDATES_FILE); // 'dialog-babi-candidates.txt'
 * ```
 */
export const COLLECTED_CANDIDATES_FILE = 'dialog-babi-candidates.txt';

/**
 * The bAbI dataset exporter of restaurant task `task` (the `dataset` hook of `restaurant-task<task>-*`):
 * writes `dialog-babi-task<task>-collected.txt` (one dialog per episode, in record order) and
 * `dialog-babi-candidates.txt` (every bot utterance once) into the folder, atomically. An episode
 * without a bot turn is left out (`skipped`).
 *
 * @example
 * ```ts
 * import { babiDataset } from 'dialogym/restaurant';
 * babiDataset(5).format; // 'bAbI dialog text'
 * ```
 */
export function babiDataset(task: number): DatasetExport {
  return {
    format: 'bAbI dialog text',
    write(episodes, out): DatasetWritten {
      const dialogs: Array<{ id: string; turns: Turn[] }> = [];
      const skipped: string[] = [];
      const candidates = new Set<string>();
      for (const { where, episode } of episodes) {
        const turns = playedTurns(where, episode, SILENCE);
        if (!turns.some((t) => t.speaker === 'bot')) {
          skipped.push(`${where}: no bot turn`);
          continue;
        }
        for (const t of turns) if (t.speaker === 'bot') candidates.add(t.text);
        dialogs.push({ id: String(dialogs.length), turns });
      }
      if (dialogs.length === 0) return { files: [], dialogs: 0, skipped };
      const dialogFile = join(out, collectedDialogFile(task));
      const candidatesFile = join(out, COLLECTED_CANDIDATES_FILE);
      writeFileAtomic(dialogFile, formatBabiDialogs(dialogs));
      writeFileAtomic(candidatesFile, formatBabiCandidates({ candidates: [...candidates] }));
      return { files: [dialogFile, candidatesFile], dialogs: dialogs.length, skipped };
    },
  };
}
