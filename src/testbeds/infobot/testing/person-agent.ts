/**
 * A scripted person playing the KB-InfoBot agent (tests, and browser tests that read the same text
 * off the page): it reads only the movie table of the agent view (`infoBotPersonView.agentView`:
 * row, title, a column per slot, missing values empty), the dialog's text and the tools' forms
 * (`request` with its slot options, `inform` with row numbers). As a person with the table in front
 * of them would, it looks up the values the user names in the table's columns (all columns for the
 * opening, the asked one for an answer), forgiving a dropped word of a name and a number a little
 * off, scores each movie by how well it fits (a missing cell fits halfway), asks for the slot that
 * best tells the best-fitting movies apart, and informs the five best rows once they are few enough
 * or its questions run out.
 */
import type { ViewSection } from '../../../env/person.js';
import type { ToolSpec } from '../../../env/env.js';

/** A dialog line as the page shows it. */
interface Line {
  readonly speaker: 'user' | 'agent';
  readonly text: string;
}

/** How many rows the user looks at (the environment's R). */
const SHOWN = 5;
/** Agent actions before the person informs whatever it has (the environment fails the tenth). */
const LAST_ACTION = 8;
/**
 * Numeric columns: how well a number said fits a cell `d` off it. People remember a rating or a
 * year exactly, or a little off (a rating by a few tenths, a year by one, rather earlier).
 */
const NUMERIC: Readonly<Record<string, (d: number) => number>> = {
  critic_rating: (d) => (Math.abs(d) < 0.05 ? 1 : 0.15 * Math.exp(-(d * d) / 0.5)),
  release_year: (d) => (d === 0 ? 1 : d === -1 ? 0.33 : d === 1 ? 0.05 : 0),
};
/** How much of the best fit an empty cell gets for being possibly the value said. */
const EMPTY = 0.1;
/** How likely a user misremembers a value. */
const SLIP = 0.05;
/** How close to the best score (a log-likelihood) a row must be to stay a contender. */
const CONTENDER = Math.log(3);
/** How far the best row must stand above the first row not shown before the person informs early. */
const CLEAR = Math.log(10);

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+(?:[.'-][a-z0-9]+)*/g) ?? [];
}

/** The values of a column named in `text`, with how well each fits (1: every word of it said; a number: how close). */
function named(column: string, values: readonly string[], text: string): Map<string, number> {
  const said = words(text);
  const out = new Map<string, number>();
  if (column in NUMERIC) {
    const numbers = said.filter((w) => (column === 'release_year' ? /^\d{4}$/ : /^\d{1,2}\.\d$/).test(w)).map(Number);
    for (const v of values) {
      const fit = Math.max(0, ...numbers.map((n) => NUMERIC[column]?.(n - Number(v)) ?? 0));
      if (fit > 0) out.set(v, fit);
    }
    return out;
  }
  const set = new Set(said);
  for (const v of values) {
    const w = words(v);
    const found = w.filter((x) => set.has(x)).length;
    if (found > 0) out.set(v, found / w.length);
  }
  // A value said whole explains its words: the other values sharing one of them were not meant.
  const whole = [...out].filter(([, f]) => f === 1).map(([v]) => v);
  return whole.length > 0 ? new Map(whole.map((v) => [v, 1])) : out;
}

/** Words that tell a person a name is the actor's or the director's. */
const NAME_CUES: Readonly<Record<string, RegExp>> = {
  actor: /\b(starring|stars|actor|actress|acts|cast)\b/,
  director: /\b(directed|director|filmmaker)\b|\bby\b(?! critics)/,
};

/**
 * The parts of an opening sentence that may name a slot's value: the parts (between commas and
 * "and") that a cue word gives to this name slot or to no name slot; every part for the other slots.
 */
function partsAbout(slot: string, text: string): string {
  const cue = NAME_CUES[slot];
  if (cue === undefined) return text;
  const parts = text.toLowerCase().split(/,|\band\b/);
  return parts.filter((p) => cue.test(p) || !Object.values(NAME_CUES).some((c) => c.test(p))).join(' , ');
}

/**
 * A KB-InfoBot agent participant (module description above): one per episode.
 *
 * @example
 * ```ts
 * const act = infoBotAgentParticipant();
 * act(view, [{ speaker: 'user', text: 'i am looking for a movie directed by iric king' }], tools); // { tool: 'request', arguments: { slot: 'release_year' } }
 * ```
 */
export function infoBotAgentParticipant(): (view: readonly ViewSection[], dialog: readonly Line[], tools: readonly ToolSpec[]) => string | { tool: string; arguments: Record<string, unknown> } {
  const asked: string[] = [];
  return (view, dialog, tools) => {
    const table = view.find((s) => s.kind === 'table');
    if (table === undefined || table.kind !== 'table') return 'Sorry, I cannot see the movie table.';
    const request = tools.find((t) => t.function.name === 'request');
    // The slots the request form offers (the table's columns but row and title while another form is open).
    const offered = (request?.function.parameters['properties'] as Record<string, { enum?: string[] }> | undefined)?.['slot']?.enum ?? table.columns.filter((c) => c !== 'row' && c !== 'title');
    const slots = offered.filter((s) => table.columns.includes(s));
    const rowAt = table.columns.indexOf('row');
    const column = (slot: string): string[] => table.rows.map((r) => r[table.columns.indexOf(slot)] ?? '');
    const distinct = new Map(slots.map((s) => [s, [...new Set(column(s).filter((v) => v !== ''))]]));
    // What the user said, slot by slot: the opening names any column, an answer the one asked.
    const users = dialog.filter((l) => l.speaker === 'user').map((l) => l.text);
    const told = new Map<string, string[]>(slots.map((s) => [s, users.slice(0, 1).map((t) => partsAbout(s, t))]));
    users.slice(1).forEach((text, k) => told.get(asked[k] ?? '')?.push(text));
    // Each turn that names values of a slot is one clue about it (a name may come in halves over
    // two turns, "hala" then "norton": both clues point at "hala norton").
    const clues: Array<{ slot: string; fits: Map<string, number>; ifMissing: number }> = [];
    const cells = new Map(slots.map((s) => [s, column(s)]));
    for (const [slot, texts] of told)
      for (const text of texts) {
        const fits = named(slot, distinct.get(slot) ?? [], text);
        if (fits.size === 0) continue;
        const col = (cells.get(slot) as string[]).filter((v) => v !== '');
        clues.push({ slot, fits, ifMissing: EMPTY * Math.max(...fits.values()) + col.reduce((a, v) => a + (fits.get(v) ?? 0), 0) / Math.max(1, col.length) });
      }
    const heard = new Set(clues.map((c) => c.slot));
    // Every movie scored by how likely it is the one described: a cell that fits counts as it fits,
    // an empty cell as a little of the best fit (EMPTY) plus how often the column holds what was
    // said, a cell that does not fit as a slip of the user's memory (SLIP).
    const scored = table.rows.map((r, i) => {
      let score = 0;
      let slips = 0;
      for (const { slot, fits, ifMissing } of clues) {
        const v = (cells.get(slot) as string[])[i] as string;
        const fit = v === '' ? ifMissing : (fits.get(v) ?? 0);
        if (v !== '' && fit === 0) slips++;
        score += Math.log(SLIP + fit);
      }
      return { row: Number(r[rowAt]), i, score, slips };
    });
    scored.sort((a, b) => b.score - a.score || a.row - b.row);
    const top = scored[0]?.score ?? 0;
    const contenders = scored.filter((s) => s.score >= top - CONTENDER);
    const inform = () => ({ tool: 'inform', arguments: { results: scored.slice(0, SHOWN).map((s) => s.row) } });
    const actions = dialog.filter((l) => l.speaker === 'agent').length;
    // Sure enough: two clues at least, the best row fits all of them, the shown rows hold every contender and stand clear of the next one.
    const sure = clues.length >= 2 && scored[0]?.slips === 0 && contenders.length <= SHOWN && top - (scored[SHOWN]?.score ?? 0) >= CLEAR;
    if (actions >= LAST_ACTION || sure) return inform();
    // Ask for a slot not asked yet — one not told first — whose values tell the contenders most apart.
    let pick: string | undefined;
    let best = -1;
    for (const s of slots) {
      if (asked.includes(s)) continue;
      const values = new Set(contenders.map((c) => (cells.get(s) as string[])[c.i]).filter((v) => v !== ''));
      const worth = (heard.has(s) ? 0 : 1000) + values.size;
      if (worth > best) [pick, best] = [s, worth];
    }
    if (pick === undefined) return inform();
    asked.push(pick);
    return { tool: 'request', arguments: { slot: pick } };
  };
}
