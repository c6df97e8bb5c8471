/** The 20 real DSTC6 test files and the official TF-IDF baseline figures (test helper). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dstc6Dir } from './shared-data.js';

export interface Dstc6TestFile {
  readonly set: string;
  readonly name: string;
  readonly data: string;
  readonly answers: string;
  /** P@1, P@2, P@5 of the official baseline_tfidf.py scored by score.py. */
  readonly tfidf: readonly [number, number, number];
}

export function dstc6TestFiles(): Dstc6TestFile[] {
  const tsv = readFileSync(join(dstc6Dir, 'derived', 'tfidf-baseline-scores-py3port.tsv'), 'utf8');
  return tsv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [set, name, p1, p2, p5] = line.split('\t') as [string, string, string, string, string];
      const data = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', set, name);
      return { set, name, data, answers: data.replace(/\.json$/, '.answers.json'), tfidf: [Number(p1), Number(p2), Number(p5)] as const };
    });
}
