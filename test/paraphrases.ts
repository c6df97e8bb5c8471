/**
 * The paraphrase fixture (test/fixtures/paraphrases.tsv: booking requests written by hand, with
 * the api_call each one means) and its replay through a chat `Session`: used by
 * test/chat-paraphrase.test.ts and bench/chat-paraphrase.bench.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatModel } from '../src/testbeds/restaurant/chat/chat-model.js';
import { Session, type SessionKb } from '../src/testbeds/restaurant/chat/session.js';
import { FormatError } from '../src/core/errors.js';
import { repoRoot } from './shared-data.js';

export interface ParaphraseCase {
  readonly line: number;
  /** The api_call the person means. */
  readonly call: string;
  /** The user's messages, sent in order whatever the bot asks. */
  readonly turns: readonly string[];
}

export const PARAPHRASE_FIXTURE = join(repoRoot, 'test', 'fixtures', 'paraphrases.tsv');

export function readParaphrases(file = PARAPHRASE_FIXTURE): ParaphraseCase[] {
  const out: ParaphraseCase[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (l.trim() === '' || l.startsWith('#')) return;
      const [call, ...turns] = l.split('\t');
      if (!/^api_call \S+ \S+ \S+ \S+$/.test(call ?? '')) throw new FormatError(file, i + 1, `expected an api_call with four values, got ${JSON.stringify(call)}`);
      if (turns.length === 0 || turns.some((t) => t.trim() === '')) throw new FormatError(file, i + 1, 'an empty user turn');
      out.push({ line: i + 1, call: call as string, turns });
    });
  return out;
}

export interface ReplayResult {
  readonly correct: number;
  readonly total: number;
  /** One printable line per dialog whose last api_call is not the one meant. */
  readonly failures: string[];
}

/** Replays every case in a new session; a case is right when the session's last api_call is the one meant. */
export function replayParaphrases(model: ChatModel, kb: SessionKb, cases: readonly ParaphraseCase[]): ReplayResult {
  const failures: string[] = [];
  for (const c of cases) {
    const s = new Session('p', model, kb);
    const calls: string[] = [];
    const said: string[] = [];
    for (const t of c.turns) {
      for (const r of s.send(t).replies) {
        if (r.kind === 'api_call') calls.push(r.text);
        if (r.kind !== 'kb') said.push(r.text);
      }
    }
    const got = calls.at(-1) ?? '(no api_call)';
    if (got !== c.call) failures.push(`  line ${c.line}: want ${c.call}, got ${got} | ${c.turns.join(' / ')} | bot: ${said.join(' / ')}`);
  }
  return { correct: cases.length - failures.length, total: cases.length, failures };
}

/** `rules: 259/259 paraphrased requests give the meant api_call (100.0 %)` and the failures. */
export function paraphraseReport(name: string, r: ReplayResult): string[] {
  return [`${name}: ${r.correct}/${r.total} paraphrased requests give the meant api_call (${((100 * r.correct) / r.total).toFixed(1)} %)`, ...r.failures];
}
