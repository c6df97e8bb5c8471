/**
 * A scripted person playing the AirDialogue agent (tests, and browser tests that read the same
 * text off the page): it reads only the agent view (the reservation line and the flight table, as
 * `airPersonView.agentView` shows them), the dialog's text and the tools, asks the customer in its
 * own words, picks the cheapest flight that meets what the customer said, and fills a tool's form
 * (`book`, `change`, `cancel`, `no_flight`, `no_reservation` with the name and the flight).
 */
import type { ViewSection } from '../../../env/person.js';

/** A dialog line as the page shows it. */
interface Line {
  readonly speaker: 'user' | 'agent';
  readonly text: string;
}

/** What a person knows of the airlines: the normal-cost (full-service) ones. */
const NORMAL_COST = new Set(['UA', 'AA', 'Delta', 'Hawaiian']);

/** Day segments of an hour as a person reads them (morning 3–11 h, afternoon 12–19 h, evening otherwise). */
function segment(hour: number): string {
  return hour < 3 || hour > 19 ? 'evening' : hour <= 11 ? 'morning' : 'afternoon';
}

/** What the customer said so far, read from its words. */
interface Heard {
  goal?: 'book' | 'change' | 'cancel';
  name?: string;
  from?: string;
  to?: string;
  dates?: [string, string];
  maxPrice?: number;
  maxConnections?: number;
  cls?: string;
  depTime?: string;
  retTime?: string;
  normalCost?: boolean;
  prefsTold?: boolean;
}

const MONTH_DAY = /\b(Jan|Feb|Mar|Apr|May|June|July|Aug|Sept|Oct|Nov|Dec) (\d{1,2})\b/g;

function hear(h: Heard, text: string): void {
  const t = text.toLowerCase();
  if (h.goal === undefined) h.goal = /\bcancel/.test(t) ? 'cancel' : /\b(change|modify)/.test(t) ? 'change' : /\b(book|ticket|trip|flight)\b/.test(t) ? 'book' : undefined;
  const name = /(?:name is|[Ii]t's|[Tt]his is|I am|I'm)\s+([A-Z][a-z]+(?: [A-Z][a-z]+)+)/.exec(text) ?? /^([A-Z][a-z]+(?: [A-Z][a-z]+)+)\.$/.exec(text.trim());
  if (name) h.name = name[1];
  const from = /\bfrom ([A-Z]{3})\b/.exec(text);
  const to = /\bto ([A-Z]{3})\b/.exec(text);
  if (from) h.from = from[1];
  if (to) h.to = to[1];
  const dates = [...text.matchAll(MONTH_DAY)].map((m) => `${m[1]} ${Number(m[2])}`);
  if (dates.length >= 2) h.dates = [dates[0] as string, dates[1] as string];
  const price = /(?:budget is|under|more than|up to|at most|pay) \$?(\d{3,5})\b/.exec(text);
  if (price) h.maxPrice = Number(price[1]);
  if (/\b(direct|non-stop|nonstop|no connections?)\b/.test(t)) h.maxConnections = 0;
  else if (/\b(one|1) (connection|stop)/.test(t)) h.maxConnections = 1;
  const cls = /\b(economy|business) class\b/.exec(t);
  if (cls) h.cls = cls[1];
  const dep = /\b(?:depart|departing|departure|leave|leaving)\b[^.;,]*?\b(morning|afternoon|evening)\b/.exec(t);
  if (dep) h.depTime = dep[1];
  const ret = /\b(?:return|returning|come back|coming back)\b[^.;,]*?\b(morning|afternoon|evening)\b/.exec(t);
  if (ret) h.retTime = ret[1];
  if (/\b(standard-fare|normal-cost|full-service)\b/.test(t)) h.normalCost = true;
}

/** The flight table of the agent view as records by column. */
function flights(view: readonly ViewSection[]): Array<Record<string, string>> {
  const t = view.find((s) => s.kind === 'table' && s.title === 'Flights');
  if (!t || t.kind !== 'table') return [];
  return t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i] ?? ''])));
}

/** The reservation's flight from the agent view's text (0: none). */
function reservation(view: readonly ViewSection[]): number {
  const s = view.find((x) => x.kind === 'text' && x.title === 'Reservation');
  const m = s && s.kind === 'text' ? /flight (\d+)/.exec(s.lines.join(' ')) : null;
  return m ? Number(m[1]) : 0;
}

/** The cheapest flight meeting what the customer said (the first in table order among equals), or undefined. */
function bestFlight(h: Heard, rows: ReadonlyArray<Record<string, string>>): number | undefined {
  let best: Record<string, string> | undefined;
  for (const f of rows) {
    const [depDate = '', depAt = ''] = (f['departure'] ?? '').split(', ');
    const [retDate = '', retAt = ''] = (f['return'] ?? '').split(', ');
    const ok =
      f['from'] === h.from &&
      f['to'] === h.to &&
      depDate === h.dates?.[0] &&
      retDate === h.dates?.[1] &&
      (h.maxPrice === undefined || Number(f['price']) <= h.maxPrice) &&
      (h.maxConnections === undefined || Number(f['connections']) <= h.maxConnections) &&
      (h.cls === undefined || f['class'] === h.cls) &&
      (h.depTime === undefined || segment(parseInt(depAt, 10)) === h.depTime) &&
      (h.retTime === undefined || segment(parseInt(retAt, 10)) === h.retTime) &&
      (!h.normalCost || NORMAL_COST.has(f['airline'] ?? ''));
    if (ok && (best === undefined || Number(f['price']) < Number(best['price']))) best = f;
  }
  return best === undefined ? undefined : Number(best['flight']);
}

/**
 * An AirDialogue agent participant (module description above): one per episode.
 *
 * @example
 * ```ts
 * const act = airAgentParticipant();
 * act(view, [{ speaker: 'user', text: 'Hi, I want to cancel my trip.' }], tools); // 'Sure — may I have your full name?'
 * ```
 */
export function airAgentParticipant(): (view: readonly ViewSection[], dialog: readonly Line[], tools: readonly unknown[]) => string | { tool: string; arguments: Record<string, unknown> } {
  return (view, dialog) => {
    const h: Heard = {};
    for (const l of dialog) if (l.speaker === 'user') hear(h, l.text);
    const asked = dialog.filter((l) => l.speaker === 'agent').map((l) => l.text);
    const act = (tool: string, flight?: number) => ({ tool, arguments: { name: h.name ?? '', ...(flight !== undefined ? { flight } : {}), utterance: 'All done, thank you for flying with us.' } });
    if (h.goal === undefined) return asked.length < 2 ? 'Good day! Do you want to book, change or cancel a trip?' : 'Sorry — would you like to book, change or cancel?';
    if (h.name === undefined) return 'Sure. May I have your full name, please?';
    const held = reservation(view);
    if (h.goal !== 'book' && held === 0) return act('no_reservation');
    if (h.goal === 'cancel') return act('cancel');
    if (h.from === undefined || h.to === undefined || h.dates === undefined) return 'Which airports are you flying between, and on which dates do you leave and return?';
    if (!asked.some((a) => a.startsWith('Noted.'))) return 'Noted. Any limits on budget, connections, class, time of day or airline?';
    const f = bestFlight(h, flights(view));
    if (f === undefined) return act('no_flight');
    return act(h.goal === 'change' ? 'change' : 'book', f);
  };
}
