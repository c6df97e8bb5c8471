/**
 * The generated tables of docs/restaurant-contract.md: what the -v2 user understands (the acts,
 * slot questions, the plain form utterances are read in, its "not understood" replies) and what
 * the user says (the datasets' patterns and the `varied` paraphrases), made from the lexicon the
 * user reads with (`src/testbeds/restaurant/online/lexicon.ts`) and the patterns it speaks with.
 * Each table sits between `<!-- generated: NAME -->` and `<!-- end generated: NAME -->`;
 * `test/restaurant-contract.test.ts` fails when the page and the code differ. Rewrite with
 * `npx tsc -p . && node dist/test/restaurant-contract.js --write`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACTS, CONTRACTIONS, FILLERS, NOT_UNDERSTOOD, QUESTION_FORM, RECALL_CUES, SLOT_CUES } from '../src/testbeds/restaurant/online/lexicon.js';
import { VARIED } from '../src/testbeds/restaurant/online/varied.js';
import * as babi from '../src/testbeds/restaurant/patterns.js';
import * as dstc6 from '../src/testbeds/dstc6/patterns-dstc6.js';
import { repoRoot } from './shared-data.js';

/** The page. */
export const CONTRACT_FILE = join(repoRoot, 'docs', 'restaurant-contract.md');

/** Line breaks inside a cell (written as `<br>` once the cell is escaped). */
const BR = '\u0001';
/** A table cell: `|` escaped; outside code spans `<x>` kept visible (GitHub drops it as an HTML tag). */
const cell = (s: string): string =>
  s
    .replace(/\|/g, '\\|')
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/&/g, '&amp;').replace(/</g, '&lt;')))
    .join('`')
    .replaceAll(BR, '<br>');
const code = (s: string): string => `\`${s}\``;
const codes = (xs: readonly string[]): string => xs.map(code).join(', ');
const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
const fillX = (p: string, v: string): string => p.replace('X', v);

/** The generated sections, by name. */
export function contractSections(): Record<string, string> {
  const acts = table(
    ['act (`info.read`)', 'what the agent does', 'cues (any order)', 'the user understands e.g.', 'what the user does'],
    ACTS.map((a) => [code(a.read), a.meaning, a.act === 'ask' ? 'a slot cue (below) in a question form' : a.act === 'recall' ? `a KB name + ${codes(RECALL_CUES)}` : a.cues.length === 0 ? 'a KB entity' : codes(a.cues), a.examples.map(code).join(BR), a.reaction]),
  );
  const slots = [
    table(
      ['slot', 'cues'],
      (Object.keys(SLOT_CUES) as (keyof typeof SLOT_CUES)[]).map((s) => [code(s), codes(SLOT_CUES[s])]),
    ),
    '',
    `A question form is one of: a question word anywhere (${codes(QUESTION_FORM.questionWords)}); a first word that opens a question (${codes(QUESTION_FORM.openers)}); a request (${codes(QUESTION_FORM.requests)}); or nothing but the cue and small words (${codes(QUESTION_FORM.smallWords)}: \`the city\`, \`and your budget\`).`,
  ].join('\n');
  const plain = [
    `Filler words (dropped): ${codes(FILLERS)}.`,
    '',
    `Contractions written out: the endings ${codes(["n't", "'re", "'m", "'ll", "'ve", "'d", "'s"])} and ${Object.entries(CONTRACTIONS)
      .map(([k, v]) => `${code(k)} → ${code(v)}`)
      .join(', ')}.`,
  ].join('\n');
  const sorry = NOT_UNDERSTOOD.map((x) => `- ${code(x)}`).join('\n');
  const ex = (xs: readonly string[], n = 3): string => xs.slice(0, n).map(code).join(BR);
  const says = table(
    ['the user', 'datasets\' style (`userStyle: dataset`, default)', '`userStyle: varied`'],
    [
      ['greets (opening)', ex(babi.GREETINGS), ex(VARIED.greetings)],
      ['asks for a table (the request: 0–4 slots)', ex([fillX(`${babi.REQUEST_OPENERS[0] as string} ${babi.SLOT_PHRASES.cuisine[0] as string}`, 'italian') + ' in rome', `${babi.REQUEST_OPENERS[1] as string} for six people`]), ex([`${VARIED.requestOpeners[0]} ${fillX(VARIED.slotPhrases.cuisine[0] as string, 'italian')} ${fillX(VARIED.slotPhrases.location[1] as string, 'rome')}`, `${VARIED.requestOpeners[2]} ${fillX(VARIED.slotPhrases.number[1] as string, 'six')}`])],
      ['books a given restaurant (task 4)', ex(babi.BOOK_AT_OPENERS.map((o) => `${o} at resto_…`), 2), ex(VARIED.bookAt.map((p) => fillX(p, 'resto_…')), 2)],
      ['answers a slot question', ex([...babi.SLOT_ANSWERS.location.map((p) => fillX(p, 'rome')), fillX(dstc6.ANSWERS.atmosphere[0] as string, 'romantic')]), ex([...VARIED.answers.location.map((p) => fillX(p, 'rome')).slice(0, 2), fillX(VARIED.answers.atmosphere[2] as string, 'romantic')])],
      ['thinks aloud first (DSTC6: hesitation, a friend, an off-topic question; the real answer follows any agent turn)', ex([dstc6.fillPattern(dstc6.HESITATIONS.location?.[0]?.text ?? '', { A: 'rome', B: 'paris' }), dstc6.OUT_OF_SCOPE[0] as string, dstc6.fillPattern(dstc6.CONSULT_INFO.phone, { F: dstc6.FRIEND_PREFIXES[0] as string })]), 'the same'],
      ['updates its request (tasks 2, 5)', ex(babi.UPDATE_OPENERS.map((o) => `${o} in rome`)), ex([...VARIED.updates.location.map((p) => fillX(p, 'rome')).slice(0, 2), fillX(VARIED.updates.number[1] as string, 'six')])],
      ['has no more updates', code(babi.NO_MORE_UPDATES), ex(VARIED.noMoreUpdates)],
      ['accepts an option', ex([...babi.ACCEPTS, ...dstc6.ACCEPTS]), ex(VARIED.accepts)],
      ['rejects an option', ex(babi.REJECTS), ex(VARIED.rejects)],
      ['asks for the phone number', ex(babi.ASK_PHONE), ex(VARIED.askInfo.phone)],
      ['asks for the address', ex(babi.ASK_ADDRESS), ex(VARIED.askInfo.address)],
      ['thanks', ex(babi.THANKS), ex(VARIED.thanks)],
      ['declines more help', ex(babi.NO_THANKS), ex(VARIED.noThanks)],
      ['has nothing to say (after a statement, with the KB lines of a call)', `${code('<SILENCE>')} (bAbI), ${code('<silence>')} (DSTC6)`, 'the same'],
    ],
  );
  return { acts, slots, plain, sorry, says };
}

/** `md` with each generated section replaced by `sections`' text (throws when a marker is missing). */
export function replaceSections(md: string, sections: Readonly<Record<string, string>>): string {
  let out = md;
  for (const [name, text] of Object.entries(sections)) {
    const begin = `<!-- generated: ${name} -->`;
    const end = `<!-- end generated: ${name} -->`;
    const i = out.indexOf(begin);
    const j = out.indexOf(end);
    if (i < 0 || j < i) throw new Error(`docs/restaurant-contract.md: no "${begin}" … "${end}"`);
    out = `${out.slice(0, i + begin.length)}\n${text}\n${out.slice(j)}`;
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  writeFileSync(CONTRACT_FILE, replaceSections(readFileSync(CONTRACT_FILE, 'utf8'), contractSections()));
  console.log(`wrote ${CONTRACT_FILE}`);
}
