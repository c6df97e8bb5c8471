/**
 * Template NLG for the simulated user, with a temperature that adds noise (the paper's Figure 5 varies
 * the NLG temperature). Each act has templates with a log-weight; a template is drawn with probability
 * ∝ exp(weight / τ) (τ → 0: always the most natural one). The realised sentence is then perturbed:
 * each word is dropped with probability min(0.5, dropRate·τ) and a random word (filler, or a token of
 * some KB value, which misleads a tracker) is inserted after it with probability min(0.5, insertRate·τ).
 */
import type { Rng } from '../../core/rng.js';
import type { SlotValue, UserAct } from './acts.js';
import type { Slot } from './slots.js';
import { ConfigError } from '../../core/errors.js';

/**
 * Options of the user's template NLG (`UserOptions.nlg`; `InfoBotEnvOptions.temperature` is a
 * shortcut for `temperature`). A negative or non-finite temperature throws a ConfigError.
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * import type { NlgOptions } from 'dialogym/infobot';
 * const nlg: NlgOptions = { temperature: 2, dropRate: 0.05 };
 * const env = make('infobot-small-v1', { user: { nlg } });
 * ```
 */
export interface NlgOptions {
  /** Temperature τ ≥ 0 (default 1). */
  temperature?: number;
  /** Per-word drop rate at τ = 1 (default 0.04). */
  dropRate?: number;
  /** Per-word insertion rate at τ = 1 (default 0.04). */
  insertRate?: number;
  /** Fraction of inserted words taken from KB values rather than fillers (default 0.3). */
  valueNoise?: number;
}

type Template = readonly [weight: number, text: string];

/** `{v}` is the value. */
const SLOT_PHRASES: Readonly<Record<Slot, readonly Template[]>> = {
  actor: [[0, 'starring {v}'], [-0.5, 'with actor {v}'], [-1, '{v} acts in it'], [-2, 'with {v}']],
  critic_rating: [[0, 'with a critic rating of {v}'], [-0.5, 'rated {v} by critics'], [-1, 'critics gave it {v}'], [-2, 'scoring {v}']],
  genre: [[0, 'in the {v} genre'], [-0.5, 'a {v} movie'], [-1, 'genre is {v}'], [-2, 'kind of {v}']],
  mpaa_rating: [[0, 'with mpaa rating {v}'], [-0.5, 'it is rated {v}'], [-1, 'rated {v}'], [-2, 'certificate {v}']],
  director: [[0, 'directed by {v}'], [-0.5, 'the director is {v}'], [-1, 'a film by {v}'], [-2, 'by {v}']],
  release_year: [[0, 'released in {v}'], [-0.5, 'from the year {v}'], [-1, 'it came out in {v}'], [-2, 'from {v}']],
};

const OPEN_FRAMES: readonly Template[] = [[0, 'i am looking for a movie {x}'], [-0.5, 'can you find me a film {x}'], [-1, 'which movie is {x}'], [-1.5, 'movie {x}']];
const ANSWER_FRAMES: readonly Template[] = [[0, 'it is {x}'], [-0.5, 'i think it is {x}'], [-1, '{x} i guess'], [-2, '{x}']];
const DONT_KNOW: readonly Template[] = [[0, "i don't know"], [-0.5, 'not sure'], [-1, 'no idea about that'], [-1.5, "i can't remember"]];
const THANKS: readonly Template[] = [[0, 'thanks, that is the one'], [-1, 'great, found it']];
const DENY: readonly Template[] = [[0, 'no, none of those is my movie'], [-1, 'that is not it']];
const FILLERS = 'um uh well okay please so like actually maybe really yeah hmm right film movie'.split(' ');

/**
 * The simulated user's template NLG (module description above): `generate(act, rng)` realises a
 * user act as a (noisy) utterance.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { TemplateNlg } from 'dialogym/infobot';
 * const nlg = new TemplateNlg(['tom', 'hanks'], { temperature: 0 });
 * nlg.generate({ act: 'inform', slot: 'genre', value: 'comedy' }, createRng(1)); // 'it is in the comedy genre'
 * ```
 */
export class TemplateNlg {
  readonly temperature: number;
  private readonly drop: number;
  private readonly insert: number;
  private readonly valueNoise: number;

  /** `valueTokens`: tokens of the KB's values, used as misleading noise words. */
  constructor(
    private readonly valueTokens: readonly string[],
    opts: NlgOptions = {},
  ) {
    this.temperature = opts.temperature ?? 1;
    if (!(this.temperature >= 0) || !Number.isFinite(this.temperature)) throw new ConfigError('temperature must be a finite number >= 0');
    this.drop = Math.min(0.5, (opts.dropRate ?? 0.04) * this.temperature);
    this.insert = Math.min(0.5, (opts.insertRate ?? 0.04) * this.temperature);
    this.valueNoise = opts.valueNoise ?? 0.3;
  }

  private choose(ts: readonly Template[], rng: Rng): string {
    if (this.temperature === 0 || ts.length === 1) return (ts[0] as Template)[1];
    const w = ts.map(([s]) => Math.exp(s / this.temperature));
    return (ts[rng.weighted(w)] as Template)[1];
  }

  private phrase(sv: SlotValue, rng: Rng): string {
    return this.choose(SLOT_PHRASES[sv.slot], rng).replace('{v}', sv.value);
  }

  /** The clean sentence for an act (template choice only, no word noise). */
  sentence(act: UserAct, rng: Rng): string {
    switch (act.act) {
      case 'open': {
        const parts = act.informs.map((sv) => this.phrase(sv, rng));
        const x = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
        return this.choose(OPEN_FRAMES, rng).replace('{x}', x).trim();
      }
      case 'inform':
        return this.choose(ANSWER_FRAMES, rng).replace('{x}', this.phrase(act, rng));
      case 'dont-know':
        return this.choose(DONT_KNOW, rng);
      case 'thanks':
        return this.choose(THANKS, rng);
      case 'deny':
        return this.choose(DENY, rng);
    }
  }

  /** The utterance for an act: a template, then word noise scaled by the temperature. */
  generate(act: UserAct, rng: Rng): string {
    const s = this.sentence(act, rng);
    if (this.drop === 0 && this.insert === 0) return s;
    const out: string[] = [];
    for (const w of s.split(' ')) {
      if (!rng.chance(this.drop)) out.push(w);
      if (rng.chance(this.insert)) out.push(this.valueTokens.length > 0 && rng.chance(this.valueNoise) ? rng.pick(this.valueTokens) : rng.pick(FILLERS));
    }
    return out.length > 0 ? out.join(' ') : s;
  }
}
