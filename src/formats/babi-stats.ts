/** The quantities of the bAbI dialog paper's Table 1, for one dialog file. */
import type { Dialog } from '../core/dialog.js';
import { SILENCE } from './babi.js';
import { tokenize } from '../core/text.js';

/**
 * The Table 1 quantities of one bAbI dialog file, as computed by `babiStats`. Per-dialog values
 * are means over the file's dialogs.
 *
 * @example
 * ```ts
 * import { babiStats, readBabiDialogs, type BabiStats } from 'dialogym';
 * const file = 'data/dialog-bAbI-tasks/dialog-babi-task1-API-calls-trn.txt';
 * const s: BabiStats = babiStats(file, readBabiDialogs(file).dialogs);
 * console.log(s.dialogs, s.utterancesPerDialog.toFixed(1), s.vocabulary);
 * ```
 */
export interface BabiStats {
  /** The file name given to `babiStats`. */
  readonly file: string;
  /** Number of dialogs. */
  readonly dialogs: number;
  /** Bot turns = TAB lines = response-prediction examples. */
  readonly botTurns: number;
  /** (user + bot + KB-result utterances) per dialog; `<SILENCE>` user turns count, as lines of the file do. */
  readonly utterancesPerDialog: number;
  /** User utterances per dialog, `<SILENCE>` excluded. */
  readonly userPerDialog: number;
  /** Bot utterances per dialog. */
  readonly botPerDialog: number;
  /** KB-result (API output) lines per dialog. */
  readonly kbPerDialog: number;
  /** `<SILENCE>` user turns per dialog. */
  readonly silencePerDialog: number;
  /** api_call bot turns per dialog. */
  readonly apiCallsPerDialog: number;
  /** Distinct whitespace tokens of user and bot utterances, `<SILENCE>` included, KB lines excluded. */
  readonly vocabulary: number;
  /** Distinct bot utterances. */
  readonly distinctBotUtterances: number;
}

/**
 * Computes the bAbI paper's Table 1 quantities (dialogs, utterances per dialog, vocabulary,
 * distinct bot utterances…) for the dialogs of one file; `file` is only copied into the result.
 * Never throws; for no dialogs the per-dialog means are 0.
 *
 * @example
 * ```ts
 * import { babiStats, readBabiDialogs } from 'dialogym';
 * const file = 'data/dialog-bAbI-tasks/dialog-babi-task6-dstc2-trn.txt';
 * const { dialogs, botTurns, distinctBotUtterances } = babiStats(file, readBabiDialogs(file).dialogs);
 * ```
 */
export function babiStats(file: string, dialogs: readonly Dialog[]): BabiStats {
  let user = 0;
  let bot = 0;
  let kb = 0;
  let silence = 0;
  let api = 0;
  const vocab = new Set<string>();
  const bots = new Set<string>();
  for (const d of dialogs) {
    for (const t of d.turns) {
      if (t.speaker === 'kb') {
        kb++;
        continue;
      }
      if (t.speaker === 'user') {
        if (t.text === SILENCE) {
          silence++;
          vocab.add(SILENCE);
          continue;
        }
        user++;
      } else {
        bot++;
        bots.add(t.text);
        if (t.text.startsWith('api_call')) api++;
      }
      for (const w of tokenize(t.text)) vocab.add(w);
    }
  }
  const n = dialogs.length || 1;
  return {
    file,
    dialogs: dialogs.length,
    botTurns: bot,
    utterancesPerDialog: (user + silence + bot + kb) / n,
    userPerDialog: user / n,
    botPerDialog: bot / n,
    kbPerDialog: kb / n,
    silencePerDialog: silence / n,
    apiCallsPerDialog: api / n,
    vocabulary: vocab.size,
    distinctBotUtterances: bots.size,
  };
}
