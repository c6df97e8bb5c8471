/** The quantities of the bAbI dialog paper's Table 1, for one dialog file. */
import type { Dialog } from '../core/dialog.js';
import { SILENCE } from '../core/dialog.js';
import { tokenize } from '../core/text.js';

export interface BabiStats {
  readonly file: string;
  readonly dialogs: number;
  /** Bot turns = TAB lines = response-prediction examples. */
  readonly botTurns: number;
  /** (user + bot + KB-result utterances) per dialog; `<SILENCE>` user turns count, as lines of the file do. */
  readonly utterancesPerDialog: number;
  /** User utterances per dialog, `<SILENCE>` excluded. */
  readonly userPerDialog: number;
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
