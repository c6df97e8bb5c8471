/**
 * Vocabulary and word-match understanding for the task-6 (DSTC2) rule-based baseline.
 *
 * The open value sets are learned, never listed: cuisines from the training api_calls and KB facts,
 * restaurant names and their attributes from the KB file and the KB lines of the training dialogs.
 * The closed sets (five areas, three price ranges) and the handful of synonyms DSTC2 callers use
 * (`center`, `moderately priced`, `dont care`, …) are written here; they were read off trn/dev.
 */
import type { Dialog } from '../../../core/dialog.js';

export type Dstc2Slot = 'cuisine' | 'location' | 'price';
export const DSTC2_SLOTS: readonly Dstc2Slot[] = ['cuisine', 'location', 'price'];
/** `dontcare` = the user said any value will do (written `R_<slot>` in the api_call). */
export const DONTCARE = 'dontcare';
export type SlotValues = Partial<Record<Dstc2Slot, string>>;

/** Restaurant attributes the user can ask about. */
export type Dstc2Info = 'phone' | 'address' | 'post_code' | 'price' | 'location' | 'cuisine';

export const LOCATIONS = ['centre', 'north', 'south', 'east', 'west'] as const;
export const PRICES = ['cheap', 'moderate', 'expensive'] as const;

export interface RestaurantFacts {
  readonly [attr: string]: string | undefined;
}

export interface Dstc2Lexicon {
  readonly cuisines: ReadonlySet<string>;
  /** Restaurant names (underscored, as in the KB) → their attributes (`cuisine`, `phone`, …). */
  readonly restaurants: ReadonlyMap<string, RestaurantFacts>;
}

/** `R_post_code` → `post_code`; any other `R_x` → `x`. */
export function attrName(rAttr: string): string {
  return rAttr.startsWith('R_') ? rAttr.slice(2) : rAttr;
}

/** A KB-result line of a task-6 dialog (`name R_attr value`), or undefined. */
export function parseKbLine(text: string): { entity: string; attr: string; value: string } | undefined {
  const m = /^(\S+) (R_\S+) (\S+)$/.exec(text.trim());
  return m ? { entity: m[1] as string, attr: attrName(m[2] as string), value: m[3] as string } : undefined;
}

/** The slots of a task-6 api_call (`api_call italian R_location cheap`); placeholders → DONTCARE. */
export function parseApiCall(text: string): SlotValues | undefined {
  const w = text.trim().split(/\s+/);
  if (w[0] !== 'api_call' || w.length !== 4) return undefined;
  const out: Record<string, string> = {};
  DSTC2_SLOTS.forEach((s, i) => {
    const v = w[i + 1] as string;
    out[s] = v === `R_${s}` ? DONTCARE : v;
  });
  return out as SlotValues;
}

/** Learns the vocabulary from training dialogs and (optionally) the task-6 KB facts. */
export function buildLexicon(
  train: readonly Dialog[],
  kb: readonly { readonly entity: string; readonly attr: string; readonly value: string }[] = [],
): Dstc2Lexicon {
  const cuisines = new Set<string>();
  const restaurants = new Map<string, Record<string, string>>();
  const addFact = (entity: string, attr: string, value: string): void => {
    let r = restaurants.get(entity);
    if (!r) restaurants.set(entity, (r = {}));
    if (r[attr] === undefined) r[attr] = value;
    if (attr === 'cuisine') cuisines.add(value);
  };
  for (const f of kb) addFact(f.entity, attrName(f.attr), f.value);
  for (const d of train) {
    for (const t of d.turns) {
      if (t.speaker === 'kb') {
        const f = parseKbLine(t.text);
        if (f) addFact(f.entity, f.attr, f.value);
      } else if (t.speaker === 'bot') {
        const c = parseApiCall(t.text);
        if (c?.cuisine && c.cuisine !== DONTCARE) cuisines.add(c.cuisine);
      }
    }
  }
  return { cuisines, restaurants };
}

/** What one user utterance says, by word matches. */
export interface UserFrame {
  readonly text: string;
  readonly silence: boolean;
  /** Slot values named in the utterance (a `dontcare` only when the utterance says which slot). */
  readonly slots: SlotValues;
  /** A `dont care` / `any` without a slot word: it answers whatever the bot asked. */
  readonly bareDontcare: boolean;
  /** Restaurant attributes asked about, in the order they appear. */
  readonly requests: readonly Dstc2Info[];
  /** Wants another suggestion (`anything else`, `different restaurant`, `how about …` without a value). */
  readonly reqalts: boolean;
  readonly bye: boolean;
  readonly thanks: boolean;
  readonly affirm: boolean;
  readonly negate: boolean;
}

const has = (text: string, re: RegExp): boolean => re.test(text);

const DONTCARE_RE = /\b(dont care|do not care|don t care|doesnt matter|does not matter|dont mind|any|anything|whatever|dontcare)\b/;

/** Reads one user utterance (lower-cased word matches over the learned vocabulary). */
export function understand(text: string, lex: Dstc2Lexicon): UserFrame {
  const t = ` ${text.toLowerCase().replace(/\s+/g, ' ').trim()} `;
  const silence = t.trim() === '<silence>' || t.trim() === '';
  const slots: Record<string, string> = {};
  // Cuisine: learned values, single words or their spaced form (`asian oriental`).
  let bestPos = Infinity;
  for (const c of lex.cuisines) {
    const forms = c.includes('_') ? [c, c.replace(/_/g, ' ')] : [c];
    for (const f of forms) {
      const i = t.indexOf(` ${f} `);
      // Later mentions win (`not indian, how about thai`): keep the last one.
      if (i >= 0 && (bestPos === Infinity || i > bestPos)) {
        bestPos = i;
        slots['cuisine'] = c;
      }
    }
  }
  // `modern european` is asked for as `european` in the api_calls.
  if (slots['cuisine'] === undefined && has(t, / modern european /) && lex.cuisines.has('european')) slots['cuisine'] = 'european';
  const loc = /\b(centre|center|central|north|south|east|west)\b/g;
  let m: RegExpExecArray | null;
  while ((m = loc.exec(t))) slots['location'] = m[1] === 'center' || m[1] === 'central' ? 'centre' : (m[1] as string);
  const price = /\b(cheap|cheaply|inexpensive|moderat\w*|modertley|expensive|pricey)\b/g;
  while ((m = price.exec(t))) {
    const w = m[1] as string;
    slots['price'] = w.startsWith('mod') ? 'moderate' : w === 'expensive' || w === 'pricey' ? 'expensive' : 'cheap';
  }
  // Don't-care phrases tied to a slot.
  let bareDontcare = false;
  if (DONTCARE_RE.test(t)) {
    let tied = false;
    if (has(t, /\b(any|dont care|doesnt matter|do not care)\b[^.]*\b(part of town|area|location|where)\b/) || has(t, /\bany ?where\b/)) {
      if (slots['location'] === undefined) slots['location'] = DONTCARE;
      tied = true;
    }
    if (has(t, /\b(any|dont care|doesnt matter|do not care)\b[^.]*\b(price|range)\b/)) {
      if (slots['price'] === undefined) slots['price'] = DONTCARE;
      tied = true;
    }
    if (has(t, /\b(any|dont care|doesnt matter|do not care)\b[^.]*\b(food|kind|type|cuisine)\b/)) {
      if (slots['cuisine'] === undefined) slots['cuisine'] = DONTCARE;
      tied = true;
    }
    if (!tied && !has(t, /\b(anything else|any other|any thing else|any more)\b/)) bareDontcare = true;
  }
  const requests: { info: Dstc2Info; at: number }[] = [];
  const req = (info: Dstc2Info, re: RegExp): void => {
    const r = re.exec(t);
    if (r) requests.push({ info, at: r.index });
  };
  req('phone', /\b(phone|number|telephone)\b/);
  req('address', /\b(address|adress|addess|where is it|located)\b/);
  req('post_code', /\b(post ?code|postal|post)\b/);
  req('price', /\b(price range|prices|price|cost|expensive is it)\b/);
  req('location', /\b(area|part of town|what part|where)\b/);
  req('cuisine', /\b(type of food|kind of food|what food|food type|what type|what kind|serve|serves|cuisine)\b/);
  // Informs mention the same words (`cheap price range`, `west part of town`): a slot named with a
  // value is an inform, not a question about the restaurant.
  const requested = requests
    .filter((r) => !(r.info === 'price' && slots['price'] !== undefined) && !(r.info === 'location' && slots['location'] !== undefined) && !(r.info === 'cuisine' && slots['cuisine'] !== undefined && !has(t, /\b(what|which)\b/)))
    .sort((a, b) => a.at - b.at)
    .map((r) => r.info);
  return {
    text,
    silence,
    slots: slots as SlotValues,
    bareDontcare,
    requests: requested,
    reqalts: has(t, /\b(anything else|any thing else|something else|different|another|other|next|alternative)\b/),
    bye: has(t, /\b(good ?bye|bye|goodbye)\b/),
    thanks: has(t, /\b(thank|thanks|thankyou)\b/),
    affirm: has(t, /^ (yes|yeah|yea|yep|right|correct|ok|okay|sure|uh huh)\b/),
    negate: has(t, /^ (no|nope|wrong|not)\b/),
  };
}
