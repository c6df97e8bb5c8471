/**
 * HCN action templates: bot utterances with their entities replaced by `<type>` placeholders
 * (`what do you think of this option: <name>`, `api_call <cuisine> <location> <number> <price>`),
 * filled back from the entity tracker, and the action mask: a template is available only when
 * every placeholder can be filled.
 *
 * Filling (domain code, as HCN allows): `<name>` is the best-rated result not yet proposed; the
 * other placeholders of a template holding `<name>` describe that restaurant; elsewhere a
 * placeholder takes the user's value for the type, else the attribute of the restaurant in focus
 * (its phone, its address).
 */
import { NAME_TYPE, isName, nextProposal, type HcnLexicon, type TrackerState } from './entities.js';

const PLACEHOLDER = /^<([a-z_]+)(?:@([a-z]+))?>$/;

/**
 * Which restaurant a `<name>` placeholder stands for: `<name>` the next proposal (best-rated result
 * not yet proposed), `<name@first>` the first proposed, `<name@prev>` the one proposed before the
 * last, `<name@current>` the one most recently named, `<name@last>` the last proposed (after a
 * recall: "the new one"). A template's source is read from the training dialogs (the first source
 * giving the actual name), so choosing the template chooses it. An attribute placeholder of a
 * template without `<name>` may carry a source too (`here it is <address@last>`); without one it
 * describes the current restaurant.
 */
export const NAME_SOURCES = ['next', 'first', 'prev', 'current', 'last'] as const;
export type NameSource = (typeof NAME_SOURCES)[number];

export function nameFrom(st: TrackerState, source: NameSource): string | undefined {
  switch (source) {
    case 'next':
      return nextProposal(st);
    case 'first':
      return st.proposed[0];
    case 'prev':
      return st.proposed.length >= 2 ? st.proposed[st.proposed.length - 2] : undefined;
    case 'current':
      return st.current;
    case 'last':
      return st.proposed[st.proposed.length - 1];
  }
}

const namePlaceholder = (source: NameSource): string => (source === 'next' ? `<${NAME_TYPE}>` : `<${NAME_TYPE}@${source}>`);

/** A template without name sources (`<name@first>` → `<name>`): what a candidate delexicalises to. */
export function baseTemplate(template: string): string {
  return template.replace(/<([a-z_]+)@[a-z]+>/g, '<$1>');
}

/** The placeholder of a type. */
export const placeholder = (type: string): string => `<${type}>`;

/**
 * Delexicalises a bot utterance: tokens (split on single spaces, so the text can be rebuilt
 * exactly) that are KB entities become placeholders, except values of a type the utterance lists
 * several of. `st`, when given, adds this dialog's restaurant names and the sources of attributes
 * of restaurants other than the current one.
 */
export function delexicaliseBot(text: string, lex: HcnLexicon, st?: TrackerState): string {
  const words = text.split(' ');
  const listed = listedTypes(words, lex);
  // Sources for attributes only in utterances naming no restaurant (else they describe the named one).
  const attrSources = st !== undefined && words[0] !== 'api_call' && !words.some((w) => isName(st, lex, w));
  return words
    .map((w) => {
      if (w.length === 0) return w;
      if (st ? isName(st, lex, w) : lex.type(w) === NAME_TYPE) {
        const source = st ? NAME_SOURCES.find((s) => nameFrom(st, s) === w) : undefined;
        return namePlaceholder(source ?? 'next');
      }
      const t = lex.type(w);
      if (t === undefined || listed.has(t)) return w;
      return st && attrSources ? attributePlaceholder(t, w, st) : placeholder(t);
    })
    .join(' ');
}

/**
 * The placeholder of a restaurant attribute: `<phone>` when it is the current restaurant's, a
 * user's value or not one restaurant's own, else `<phone@source>` with the first name source
 * whose restaurant has it.
 */
function attributePlaceholder(type: string, value: string, st: TrackerState): string {
  const has = (name: string | undefined): boolean => name !== undefined && st.restaurants.get(name)?.get(type) === value;
  if (type === NAME_TYPE || has(st.current) || [...st.slots.values()].includes(value)) return placeholder(type);
  // Only values that single out one restaurant (its phone, its address), not a cuisine several share.
  let owners = 0;
  for (const a of st.restaurants.values()) if (a.get(type) === value) owners++;
  if (owners !== 1) return placeholder(type);
  const source = NAME_SOURCES.find((s) => s !== 'next' && s !== 'current' && has(nameFrom(st, s)));
  return source ? `<${type}@${source}>` : placeholder(type);
}

/**
 * Value types a bot utterance lists several values of (`cheap , moderate , or expensive`): it
 * enumerates options rather than stating a tracked value, so they stay words (api_calls excepted).
 */
function listedTypes(words: readonly string[], lex: HcnLexicon): Set<string> {
  const out = new Set<string>();
  if (words[0] === 'api_call') return out;
  const byType = new Map<string, string>();
  for (const w of words) {
    const t = lex.type(w);
    if (t === undefined || t === NAME_TYPE) continue;
    const first = byType.get(t);
    if (first === undefined) byType.set(t, w);
    else if (first !== w) out.add(t);
  }
  return out;
}

/** The placeholder types of a template, in order. */
export function placeholders(template: string): string[] {
  const out: string[] = [];
  for (const w of template.split(' ')) {
    const m = PLACEHOLDER.exec(w);
    if (m) out.push(m[1] as string);
  }
  return out;
}

function sourceOf(template: string): NameSource | undefined {
  let attrSource: NameSource | undefined;
  for (const w of template.split(' ')) {
    const m = PLACEHOLDER.exec(w);
    if (m && m[1] === NAME_TYPE) return (m[2] as NameSource | undefined) ?? 'next';
    if (m && m[2] !== undefined) attrSource ??= m[2] as NameSource;
  }
  return attrSource;
}

/** The value for one placeholder, or undefined when the tracker cannot tell. */
function valueOf(type: string, hasName: boolean, focus: string | undefined, st: TrackerState): string | undefined {
  if (type === NAME_TYPE) return focus;
  const attr = focus !== undefined ? st.restaurants.get(focus)?.get(type) : undefined;
  if (hasName) return attr ?? st.slots.get(type);
  return st.slots.get(type) ?? attr;
}

/** The restaurant a template talks about: the one its `<name>` stands for, else the current one. */
export function focusOf(template: string, st: TrackerState): string | undefined {
  const source = sourceOf(template);
  return source ? nameFrom(st, source) : st.current;
}

/** A template split into words, with its placeholders parsed (type, source) — parsed once per template. */
interface ParsedTemplate {
  readonly words: readonly string[];
  /** Per word: the placeholder's type and source, or undefined for a plain word. */
  readonly slots: readonly ({ readonly type: string; readonly source: string | undefined } | undefined)[];
  readonly hasName: boolean;
  readonly source: NameSource | undefined;
}

const parsed = new Map<string, ParsedTemplate>();

function parse(template: string): ParsedTemplate {
  let p = parsed.get(template);
  if (!p) {
    const words = template.split(' ');
    const slots = words.map((w) => {
      const m = PLACEHOLDER.exec(w);
      return m ? { type: m[1] as string, source: m[2] } : undefined;
    });
    p = { words, slots, hasName: slots.some((x) => x?.type === NAME_TYPE), source: sourceOf(template) };
    if (parsed.size > 100_000) parsed.clear();
    parsed.set(template, p);
  }
  return p;
}

/** Fills a template from the tracker; undefined when a placeholder has no value (masked). */
export function fillTemplate(template: string, st: TrackerState): string | undefined {
  const p = parse(template);
  if (!p.slots.some((x) => x !== undefined)) return template;
  const focus = p.source ? nameFrom(st, p.source) : st.current;
  const words = p.words.slice();
  for (let i = 0; i < words.length; i++) {
    const m = p.slots[i];
    if (!m) continue;
    const v = m.source !== undefined && m.type !== NAME_TYPE ? (focus !== undefined ? st.restaurants.get(focus)?.get(m.type) : undefined) : valueOf(m.type, p.hasName, focus, st);
    if (v === undefined) return undefined;
    words[i] = v;
  }
  return words.join(' ');
}

/** The action templates of a model (in order of first appearance in the training dialogs). */
export class TemplateSet {
  readonly templates: string[] = [];
  private readonly index = new Map<string, number>();

  constructor(templates: Iterable<string> = []) {
    for (const t of templates) this.add(t);
  }

  add(t: string): number {
    let i = this.index.get(t);
    if (i === undefined) {
      i = this.templates.length;
      this.templates.push(t);
      this.index.set(t, i);
    }
    return i;
  }

  id(t: string): number {
    return this.index.get(t) ?? -1;
  }

  get size(): number {
    return this.templates.length;
  }

  /** The action mask and the filled text of every available template. */
  mask(st: TrackerState): { mask: Uint8Array; fills: (string | undefined)[] } {
    const mask = new Uint8Array(this.size);
    const fills = this.templates.map((t, i) => {
      const f = fillTemplate(t, st);
      if (f !== undefined) mask[i] = 1;
      return f;
    });
    return { mask, fills };
  }
}
