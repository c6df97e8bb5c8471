/**
 * Played DSTC6 episodes (`dstc6-task*-tst*` transcripts, a study's transcripts) as a DSTC6 Track 1
 * dataset: one entry per bot turn of each dialog — the dialog up to that turn, the bot's utterance
 * as the answer among candidates drawn as the generated sets draw them (`entries.ts`: hard
 * distractors of the answer's template, api_call variants, context utterances; shuffled, UUIDs) —
 * with the answer attached (a training file, for `train --model hcn`) and the answers file beside
 * it (`dstc6 score`, `dstc6 check`). The randomness is seeded by each episode's seed and its place
 * in the export (so the ids stay unique when one episode is exported twice).
 */
import { join } from 'node:path';
import { createRng } from '../../core/rng.js';
import { writeFileAtomic } from '../../core/files.js';
import { formatDstc6Data, formatDstc6Results, type Dstc6Entry, type Dstc6Result } from '../../formats/dstc6.js';
import type { DatasetExport, DatasetWritten } from '../../env/env.js';
import { playedTurns } from '../restaurant/export.js';
import { drawDistractorMap, entryAt } from './entries.js';
import { answersFileName, DSTC6_TASK_NAMES, SET_SPECS, type Dstc6Set } from './sim-dataset.js';
import { SILENCE6, type Dstc6Task, type SimContext } from './sim-dialog.js';

/**
 * The dataset file name of `n` collected entries of a task on a test set's KB:
 * `dialog-task5FULL-kb1_atmosphere-distr0.5-collected120.json` (the release's pattern, `collected`
 * for `trn`/`tst`).
 *
 * @example
 * ```ts
 * import { collectedDstc6File } from 'dialogym/dstc6';
 * collectedDstc6File(5, 'tst4', 120); // 'dialog-task5FULL-kb2_atmosphere_restrictions-distr0.5-collected120.json'
 * ```
 */
export function collectedDstc6File(task: Dstc6Task, set: Exclude<Dstc6Set, 'trn'>, n: number): string {
  const s = SET_SPECS[set];
  return `dialog-${DSTC6_TASK_NAMES[task]}-kb${s.kb}_atmosphere${s.restrictions ? '_restrictions' : ''}-distr0.5-collected${n}.json`;
}

/**
 * The DSTC6 dataset exporter of a task on a test set (the `dataset` hook of `dstc6-task<task>-<set>-v*`).
 * `context` gives the KB and slots the distractors are drawn from (the environment's default KB).
 * An episode without a bot turn is left out (`skipped`).
 *
 * @example
 * ```ts
 * import { envDataset } from 'dialogym';
 * envDataset('dstc6-task5-tst1-v2')?.format; // 'DSTC6 JSON'
 * ```
 */
export function dstc6Dataset(task: Dstc6Task, set: Exclude<Dstc6Set, 'trn'>, context: () => SimContext): DatasetExport {
  return {
    format: 'DSTC6 JSON',
    write(episodes, out): DatasetWritten {
      const entries: Dstc6Entry[] = [];
      const answers: Dstc6Result[] = [];
      const skipped: string[] = [];
      let dialogs = 0;
      let ctx: SimContext | undefined;
      for (const [k, { where, episode }] of episodes.entries()) {
        const turns = playedTurns(where, episode, SILENCE6);
        const bots = turns.flatMap((t, i) => (t.speaker === 'bot' ? [i] : []));
        if (bots.length === 0) {
          skipped.push(`${where}: no bot turn`);
          continue;
        }
        ctx ??= context();
        const rng = createRng(episode.seed).fork(`dstc6-export:${k}:${episode.episode}:${episode.trial}`);
        const map = drawDistractorMap(rng.fork('map'), task, ctx);
        for (const cut of bots) {
          const e = entryAt(rng.fork(`cut${cut}`), turns, cut, ctx, map, { withAnswer: true });
          entries.push(e.entry);
          answers.push(e.answer);
        }
        dialogs++;
      }
      if (dialogs === 0) return { files: [], dialogs: 0, skipped };
      const dataFile = join(out, collectedDstc6File(task, set, entries.length));
      const answersFile = answersFileName(dataFile);
      writeFileAtomic(dataFile, formatDstc6Data(entries));
      writeFileAtomic(answersFile, formatDstc6Results(answers));
      return { files: [dataFile, answersFile], dialogs, skipped };
    },
  };
}
