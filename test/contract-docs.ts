/**
 * The generated parts of the conversation contracts, docs/restaurant-contract.md,
 * docs/airdialogue-contract.md and docs/infobot-contract.md: made from the code the environments
 * run (the restaurant and DSTC6 -v2 user's lexicon and what the user says in either style; the
 * AirDialogue customer's lexicon, answers, tools and failure reasons; KB-InfoBot's tools, actions,
 * the user's sentences and rewards). Each part sits in the page between `<!-- generated: NAME -->` and
 * `<!-- end: NAME -->`; `test/contract-docs.test.ts` checks the pages against this script. After
 * changing the lexicon or the templates, rewrite them with
 * `npx tsc -p . && node dist/test/contract-docs.js --write`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../src/core/rng.js';
import type { Intent } from '../src/formats/airdialogue.js';
import type { ToolSpec } from '../src/env/env.js';
import {
  AIR_ACTS,
  AIR_CUES,
  AIR_FAILURES,
  AIR_FILLERS,
  AIR_MONEY_WORDS,
  AIR_TOOLS,
  CUSTOMER_NOT_UNDERSTOOD,
  LexiconCustomer,
  type CueKind,
} from '../src/testbeds/airdialogue/index.js';
import { ACTION_COUNT, INFOBOT_FAILURES, INFOBOT_TOOLS, REWARDS, SLOTS, TemplateNlg, discreteAction, type UserAct } from '../src/testbeds/infobot/index.js';
import { ACTS, CONTRACTIONS, FILLERS, NOT_UNDERSTOOD, QUESTION_FORM, RECALL_CUES, SLOT_CUES } from '../src/testbeds/restaurant/online/lexicon.js';
import { VARIED } from '../src/testbeds/restaurant/online/varied.js';
import * as babi from '../src/testbeds/restaurant/patterns.js';
import * as dstc6 from '../src/testbeds/dstc6/patterns-dstc6.js';
import { repoRoot } from './shared-data.js';

/** A table cell: `|` escaped (GitHub splits cells on it even in code spans), new lines as spaces. */
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string): string => `\`${s}\``;

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

function toolsTable(tools: readonly ToolSpec[]): string {
  return table(
    ['tool', 'arguments', 'what it does'],
    tools.map((t) => {
      const p = t.function.parameters as { properties: Record<string, { type: string; enum?: readonly string[]; items?: { type: string } }>; required: readonly string[] };
      const args = Object.entries(p.properties).map(([k, v]) => `${k}${p.required.includes(k) ? '' : '?'}: ${v.type === 'array' ? `${v.items?.type ?? 'any'}[]` : v.type}${v.enum ? ` (${v.enum.join(', ')})` : ''}`);
      return [code(t.function.name), args.join(', '), t.function.description];
    }),
  );
}

/** The customer of the examples: every requirement set, so each answer says something. */
const EXAMPLE_INTENT: Intent = {
  departure_airport: 'DFW',
  return_airport: 'IAD',
  departure_month: 'June',
  departure_day: '12',
  return_month: 'June',
  return_day: '14',
  name: 'Emily Edwards',
  goal: 'book',
  max_price: 500,
  max_connections: 1,
  class: 'economy',
  departure_time: 'morning',
  return_time: 'evening',
  airline_preference: 'normal-cost',
};

const CUE_KIND_MEANING: Readonly<Record<CueKind, string>> = {
  name: 'topic: the name',
  airport: 'topic: airports',
  date: 'topic: dates',
  time: 'topic: times of day',
  budget: 'topic: the budget',
  connections: 'topic: connections',
  class: 'topic: the cabin class',
  airline: 'topic: the airline',
  airportOut: 'direction (airports): outbound — the departure airport',
  airportBack: 'direction (airports): the destination',
  travelOut: 'direction (dates, times): the outbound flight',
  travelBack: 'direction (dates, times): the return flight',
  requirements: 'marker: a question about requirements',
  examples: 'marker: what follows lists examples (a general requirements question)',
  open: 'marker: an open question about the trip',
  flightWord: 'marker: a four-digit number after it (within three words) is a flight number',
  propose: 'marker: a proposal without a flight number',
  goal: 'weak: asks what the customer wants',
  greet: 'weak: a greeting',
  wait: 'weak: asks the customer to wait',
  close: 'weak: thanks, closing',
  neutral: 'nothing (keeps its words from being read alone)',
};

const quoted = (xs: readonly string[]): string => xs.map((x) => `“${x}”`).join(' · ');
const fillX = (p: string, v: string): string => p.replace('X', v);

/** The generated parts of docs/restaurant-contract.md, by name: the -v2 user's lexicon, its "not understood" replies, what the user says in either style. */
export function restaurantContractParts(): Record<string, string> {
  const codes = (xs: readonly string[]): string => xs.map(code).join(', ');
  const acts = table(
    ['act (`info.read`)', 'what the agent does', 'cues (any order)', 'the user understands e.g.', 'what the user does'],
    ACTS.map((a) => [
      code(a.read),
      a.meaning,
      a.act === 'ask' ? 'a slot cue (below) in a question form' : a.act === 'recall' ? `a KB name + ${codes(RECALL_CUES)}` : a.cues.length === 0 ? 'a KB entity' : codes(a.cues),
      quoted(a.examples),
      a.reaction,
    ]),
  );
  const slots = [
    table(
      ['slot', 'cues'],
      (Object.keys(SLOT_CUES) as (keyof typeof SLOT_CUES)[]).map((slot) => [code(slot), codes(SLOT_CUES[slot])]),
    ),
    '',
    `A question form is one of: a question word anywhere (${codes(QUESTION_FORM.questionWords)}); a word that opens a question (${codes(QUESTION_FORM.openers)}) as the first word, or later followed by a subject (${codes(QUESTION_FORM.subjects)}: \`Got it. Do you have allergies?\`) or, for ${codes(QUESTION_FORM.quantifiers)}, by a slot's cue word (\`Noted. Any allergies?\`); a request (${codes(QUESTION_FORM.requests)}); or nothing but the slot's cues and small words (${codes(QUESTION_FORM.smallWords)}: \`the city\`, \`and your budget\`, \`cheap, moderate or expensive?\`).`,
  ].join('\n');
  const plain = [
    `Filler words (dropped): ${codes(FILLERS)}.`,
    '',
    `Contractions written out: the endings ${codes(["n't", "'re", "'m", "'ll", "'ve", "'d", "'s"])} and ${Object.entries(CONTRACTIONS)
      .map(([k, v]) => `${code(k)} → ${code(v)}`)
      .join(', ')}.`,
  ].join('\n');
  const notUnderstood = NOT_UNDERSTOOD.map((x) => `- “${x}”`).join('\n');
  const ex = (xs: readonly string[], n = 3): string => quoted(xs.slice(0, n));
  const says = table(
    ['the user', "datasets' style (`userStyle: dataset`, default)", '`userStyle: varied`'],
    [
      ['greets (opening)', ex(babi.GREETINGS), ex(VARIED.greetings)],
      [
        'asks for a table (the request: 0–4 slots)',
        ex([`${babi.REQUEST_OPENERS[0] as string} ${fillX(babi.SLOT_PHRASES.cuisine[0] as string, 'italian')} in rome`, `${babi.REQUEST_OPENERS[1] as string} for six people`]),
        ex([`${VARIED.requestOpeners[0]} ${fillX(VARIED.slotPhrases.cuisine[0] as string, 'italian')} ${fillX(VARIED.slotPhrases.location[1] as string, 'rome')}`, `${VARIED.requestOpeners[2]} ${fillX(VARIED.slotPhrases.number[1] as string, 'six')}`]),
      ],
      ['books a given restaurant (task 4)', ex(babi.BOOK_AT_OPENERS.map((o) => `${o} at resto_…`), 2), ex(VARIED.bookAt.map((p) => fillX(p, 'resto_…')), 2)],
      ['answers a slot question', ex([...babi.SLOT_ANSWERS.location.map((p) => fillX(p, 'rome')), fillX(dstc6.ANSWERS.atmosphere[0] as string, 'romantic')]), ex([...VARIED.answers.location.map((p) => fillX(p, 'rome')).slice(0, 2), fillX(VARIED.answers.atmosphere[2] as string, 'romantic')])],
      [
        'thinks aloud first (DSTC6: hesitation, a friend, an off-topic question; the real answer follows any agent turn)',
        ex([dstc6.fillPattern(dstc6.HESITATIONS.location?.[0]?.text ?? '', { A: 'rome', B: 'paris' }), dstc6.OUT_OF_SCOPE[0] as string, dstc6.fillPattern(dstc6.CONSULT_INFO.phone, { F: dstc6.FRIEND_PREFIXES[0] as string })]),
        'the same',
      ],
      ['updates its request (tasks 2, 5)', ex(babi.UPDATE_OPENERS.map((o) => `${o} in rome`)), ex([...VARIED.updates.location.map((p) => fillX(p, 'rome')).slice(0, 2), fillX(VARIED.updates.number[1] as string, 'six')])],
      ['has no more updates', ex([babi.NO_MORE_UPDATES]), ex(VARIED.noMoreUpdates)],
      ['accepts an option', ex([...babi.ACCEPTS, ...dstc6.ACCEPTS]), ex(VARIED.accepts)],
      ['rejects an option', ex(babi.REJECTS), ex(VARIED.rejects)],
      ['asks for the phone number', ex(babi.ASK_PHONE), ex(VARIED.askInfo.phone)],
      ['asks for the address', ex(babi.ASK_ADDRESS), ex(VARIED.askInfo.address)],
      ['thanks', ex(babi.THANKS), ex(VARIED.thanks)],
      ['declines more help', ex(babi.NO_THANKS), ex(VARIED.noThanks)],
      ['has nothing to say (after a statement, with the KB lines of a call)', `${code('<SILENCE>')} (bAbI), ${code('<silence>')} (DSTC6)`, 'the same'],
    ],
  );
  return { 'restaurant-acts': acts, 'restaurant-slots': slots, 'restaurant-plain': plain, 'restaurant-not-understood': notUnderstood, 'restaurant-says': says };
}

/** The generated parts of docs/airdialogue-contract.md, by name. */
export function airContractParts(): Record<string, string> {
  const example = new LexiconCustomer(EXAMPLE_INTENT, createRng(1));
  example.open();
  const acts = table(
    ['read (`info.read`)', 'read when', 'the customer answers', 'example wordings', 'example answer'],
    AIR_ACTS.map((a) => {
      return [code(a.label), a.heard + (a.weak ? ' (weak)' : ''), a.answer, a.examples.map((e) => `“${e}”`).join(' · '), `“${example.respond(a.examples[0] as string)}”`];
    }),
  );
  const cues = table(
    ['kind', 'marks', 'cue phrases (`$`: the end of a sentence)'],
    (Object.keys(AIR_CUES) as CueKind[]).map((k) => [code(k), CUE_KIND_MEANING[k], AIR_CUES[k].map(code).join(', ')]),
  );
  const words = [
    `Fillers, dropped before matching: ${AIR_FILLERS.map(code).join(', ')}.`,
    '',
    `A four-digit number next to one of ${AIR_MONEY_WORDS.map(code).join(', ')} is an amount, not a flight number.`,
  ].join('\n');
  const notUnderstood = CUSTOMER_NOT_UNDERSTOOD.map((s) => `- “${s}”`).join('\n');
  const failures = table(
    ['precedence', '`info.failure`', 'when'],
    AIR_FAILURES.map((f, i) => [String(i + 1), code(f.reason), f.when]),
  );
  return { 'air-acts': acts, 'air-cues': cues, 'air-words': words, 'air-not-understood': notUnderstood, 'air-tools': toolsTable(AIR_TOOLS), 'air-failures': failures };
}

const USER_ACTS: ReadonlyArray<readonly [UserAct, string]> = [
  [{ act: 'open', informs: [] }, 'first turn: asks for a movie, giving 1 to 5 of the slots it knows (… : their slot phrases, joined by commas and "and")'],
  [{ act: 'inform', slot: 'genre', value: '<v>' }, 'answer to `request(slot)` when the user knows the slot (… : the slot phrase; the value may be substituted or corrupted)'],
  [{ act: 'dont-know', slot: 'genre' }, 'answer to `request(slot)` when the user does not know the slot'],
  [{ act: 'thanks' }, 'end: the movie is among the first R results of `inform`'],
  [{ act: 'deny' }, 'end: it is not, or the turn limit was reached'],
];

/** Every distinct sentence of an act (template choice only, no word noise), drawn until none is new. */
function sentences(nlg: TemplateNlg, act: UserAct): string[] {
  const seen = new Set<string>();
  const rng = createRng(7);
  for (let i = 0; i < 400; i++) seen.add(nlg.sentence(act, rng));
  return [...seen];
}

/** The phrases a slot's value is said with (`<v>`: the value): the opening sentences without their frame. */
function slotPhrases(nlg: TemplateNlg, slot: (typeof SLOTS)[number]): string[] {
  const frames = sentences(nlg, { act: 'open', informs: [] }).sort((a, b) => b.length - a.length);
  const out = new Set<string>();
  for (const s of sentences(nlg, { act: 'open', informs: [{ slot, value: '<v>' }] })) {
    const f = frames.find((x) => s.startsWith(`${x} `));
    out.add(f === undefined ? s : s.slice(f.length + 1));
  }
  return [...out];
}

/** The sentences of a user act with its slot phrase as `…`. */
function actFrames(nlg: TemplateNlg, act: UserAct): string[] {
  if (act.act === 'open') return sentences(nlg, act).map((s) => `${s} …`);
  if (act.act !== 'inform') return sentences(nlg, act);
  const phrases = slotPhrases(nlg, act.slot).sort((a, b) => b.length - a.length);
  return [...new Set(sentences(nlg, act).map((s) => phrases.reduce((t, p) => t.replace(p, '…'), s)))];
}

/** The generated parts of docs/infobot-contract.md, by name. */
export function infobotContractParts(): Record<string, string> {
  const nlg = new TemplateNlg([]);
  const actions = table(
    ['index', 'action'],
    Array.from({ length: ACTION_COUNT }, (_, n) => [String(n), code(JSON.stringify(discreteAction(n, n === ACTION_COUNT - 1 ? [4, 8, 15] : [])))]),
  );
  const userActs = table(
    ['user act (`info.userAct`)', 'when', 'sentences (before word noise)'],
    USER_ACTS.map(([act, when]) => [code(act.act), when, actFrames(nlg, act).map((s) => `“${s}”`).join(' · ')]),
  );
  const phrases = table(
    ['slot', 'phrases (`<v>`: the value)'],
    SLOTS.map((slot) => [code(slot), slotPhrases(nlg, slot).map((s) => `“${s}”`).join(' · ')]),
  );
  const rewards = table(
    ['constant', 'value', 'meaning'],
    [
      ['success', String(REWARDS.success), 'scale of the reward when the target is at 0-based rank r < R of `inform`: success · (1 − r / R)'],
      ['successMaxRank (R)', String(REWARDS.successMaxRank), 'the target must be among the first R results'],
      ['failure', String(REWARDS.failure), 'reward of an `inform` without the target in the first R, and of the last turn'],
      ['perTurn', String(REWARDS.perTurn), 'reward of each `request`'],
      ['maxTurns', String(REWARDS.maxTurns), 'agent actions per episode; the last one fails whatever it is'],
    ],
  );
  const failures = table(
    ['', 'failure (`info.failure`)', 'when'],
    Object.entries(INFOBOT_FAILURES).map(([reason, when], i) => [String(i + 1), code(reason), when]),
  );
  return { 'infobot-tools': toolsTable(INFOBOT_TOOLS), 'infobot-actions': actions, 'infobot-user-acts': userActs, 'infobot-slot-phrases': phrases, 'infobot-rewards': rewards, 'infobot-failures': failures };
}

const begin = (name: string): string => `<!-- generated: ${name} (test/contract-docs.ts) -->`;
const end = (name: string): string => `<!-- end: ${name} -->`;

/** The text between a part's markers in `md`, or null when the markers are missing. */
export function documentedPart(md: string, name: string): string | null {
  const b = md.indexOf(begin(name));
  const e = md.indexOf(end(name));
  if (b < 0 || e < b) return null;
  return md.slice(b + begin(name).length, e).trim();
}

/** `md` with every part replaced; a part whose markers are missing is an error. */
export function writeParts(md: string, parts: Readonly<Record<string, string>>, file: string): string {
  let out = md;
  for (const [name, body] of Object.entries(parts)) {
    const b = out.indexOf(begin(name));
    const e = out.indexOf(end(name));
    if (b < 0 || e < b) throw new Error(`${file}: no "${begin(name)}" … "${end(name)}" markers`);
    out = `${out.slice(0, b + begin(name).length)}\n${body}\n${out.slice(e)}`;
  }
  return out;
}

/** The pages and their parts. */
export const CONTRACT_DOCS: ReadonlyArray<readonly [string, () => Record<string, string>]> = [
  ['docs/restaurant-contract.md', restaurantContractParts],
  ['docs/airdialogue-contract.md', airContractParts],
  ['docs/infobot-contract.md', infobotContractParts],
];

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  for (const [rel, parts] of CONTRACT_DOCS) {
    const file = join(repoRoot, rel);
    writeFileSync(file, writeParts(readFileSync(file, 'utf8'), parts(), rel));
    console.log(`wrote ${file}`);
  }
}
