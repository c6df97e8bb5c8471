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
import { NAME_TYPE, isName, nextProposal, type HcnLexicon, type TrackerState } from './hcn-entities.js';

const PLACEHOLDER = /^<([a-z_]+)(?:@([a-z]+))?>$/;

/**
 * Which restaurant a `<name>` placeholder stands for: `<name>` the next proposal (best-rated result
 * not yet proposed), `<name@first>` the first proposed, `<name@prev>` the one proposed before the
 * last, `<name@current>` the one most recently named. A template's source is read from the
 * training dialogs (the first source giving the actual name), so choosing the template chooses it.
 */
export const NAME_SOURCES = ['next', 'first', 'prev', 'current'] as const;
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
 * exactly) that are KB entities become placeholders. `st`, when given, adds this dialog's
 * restaurant names.
 */
export function delexicaliseBot(text: string, lex: HcnLexicon, st?: TrackerState): string {
  return text
    .split(' ')
    .map((w) => {
      if (w.length === 0) return w;
      if (st ? isName(st, lex, w) : lex.type(w) === NAME_TYPE) {
        const source = st ? NAME_SOURCES.find((s) => nameFrom(st, s) === w) : undefined;
        return namePlaceholder(source ?? 'next');
      }
      const t = lex.type(w);
      return t === undefined ? w : placeholder(t);
    })
    .join(' ');
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
  for (const w of template.split(' ')) {
    const m = PLACEHOLDER.exec(w);
    if (m && m[1] === NAME_TYPE) return (m[2] as NameSource | undefined) ?? 'next';
  }
  return undefined;
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

/** Fills a template from the tracker; undefined when a placeholder has no value (masked). */
export function fillTemplate(template: string, st: TrackerState): string | undefined {
  const types = placeholders(template);
  if (types.length === 0) return template;
  const hasName = types.includes(NAME_TYPE);
  const focus = focusOf(template, st);
  const words = template.split(' ');
  for (let i = 0; i < words.length; i++) {
    const m = PLACEHOLDER.exec(words[i] as string);
    if (!m) continue;
    const v = valueOf(m[1] as string, hasName, focus, st);
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
