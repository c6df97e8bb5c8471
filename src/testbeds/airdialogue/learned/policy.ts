/**
 * The learned models as AirDialogue policies: an agent session (a `AgentPolicyFactory`) and a
 * customer session (a `CustomerPolicyFactory`), so they play in `airdialogue-v1`, in `selfPlay`
 * runs and against the rule policies. Each session keeps its model's GRU state over the
 * conversation (every token is read once, as in training), decodes its turns greedily, and the
 * agent ends the dialogue when it produces `<eod>`: its state model then writes the action from
 * the whole conversation.
 */
import type { Rng } from '../../../core/rng.js';
import type { Action, Intent, KbLine } from '../../../formats/airdialogue.js';
import type { AgentMove, AgentPolicyFactory, AgentSession, CustomerPolicyFactory, CustomerSession } from '../policies.js';
import { AirDialogueEnv, episodeSeed, selfPlayEpisode, selfPlayEpisodes, type Episode } from '../env.js';
import { agentPolicies, customerPolicies } from '../policies.js';
import type { ScoreReport } from '../scorer.js';
import { corpusBleu } from './bleu.js';
import { oodContext, type LearnedExample, type OodSetting } from './data.js';
import { prepare, type DecodeKernels, type DialogueModel, type Encoded, type Prepared } from './model.js';
import { EOD, T1, T2, flightTokens, intentTokens, reservationToken, tokenizeText } from './tokens.js';
import type { AirModels } from './train.js';

const NO_ACTION: Action = { status: '', name: '', flight: [] };

function contextExample(kb: KbLine | null, intent: Intent | null): LearnedExample {
  const flights = kb?.kb ?? [];
  return {
    line: 0,
    dialogue: { tokens: [], speaker: new Uint8Array(0) },
    intent: intent ? intentTokens(intent) : [],
    flights: flights.map(flightTokens),
    reservation: reservationToken(kb ?? { kb: [], reservation: 0 }),
    flightNumbers: flights.map((f) => f.flight_number),
    action: NO_ACTION,
    source: { line: 0, data: { intent: intent as Intent, action: NO_ACTION, expected_action: NO_ACTION, dialogue: [], timestamps: [], correct_sample: false }, kb: kb ?? { kb: [], reservation: 0 } },
  };
}

/** One side's running conversation: the token stream so far and the GRU state after it. */
class Stream {
  readonly words: string[] = [];
  readonly speaker: number[] = [];
  /** The customer's word ids so far with the position each was first said at (the agent's flight memory matches them, `sizes.match`). */
  private readonly said = new Map<number, number>();
  /** The customer's words so far, markers excluded (the agent's constraint features read them, `sizes.constraints`). */
  private readonly saidWords: string[] = [];
  private h: Float32Array;
  private readonly enc: ReturnType<DialogueModel['encode']>;
  private readonly p: Prepared;
  private readonly kernels: DecodeKernels;
  /** The kernels this session decodes on and its context's encoding (the state model's prediction reads the dialogue with them too). */
  get decodeKernels(): DecodeKernels {
    return this.kernels;
  }
  get prepared(): Prepared {
    return this.p;
  }
  get encoding(): Encoded {
    return this.enc;
  }

  constructor(
    private readonly model: DialogueModel,
    readonly ctx: LearnedExample,
    private readonly maxLen: number,
    kernels: DecodeKernels | undefined,
  ) {
    this.p = prepare(ctx, model.vocab);
    // the weights do not change during a session: decode on kernels made from them now (or the caller's, LearnedPolicyOptions.kernels)
    this.kernels = kernels ?? model.decodeKernels();
    this.enc = model.encode(this.p);
    this.h = this.enc.h0;
  }

  feed(word: string, speaker: number): void {
    this.words.push(word);
    this.speaker.push(speaker);
    const id = this.model.vocab.id(word);
    if (speaker === 0 && !this.said.has(id)) this.said.set(id, this.words.length - 1);
    if (speaker === 0 && word !== T1 && word !== T2 && word !== EOD) this.saidWords.push(word);
    this.h = this.model.gruStep(this.model.emb.row(id), this.h, this.kernels);
  }

  /** Opens a turn with `marker` and decodes it; returns its words and whether `<eod>` ended it. */
  speak(marker: string, speaker: number, rng?: Rng): { words: string[]; end: boolean } {
    this.feed(marker, speaker);
    const out: string[] = [];
    const enc = this.model.withSaid(this.enc, this.p, this.said, this.saidWords);
    for (let k = 0; k < this.maxLen; k++) {
      const w = this.model.nextWord(this.h, enc, this.p, rng, this.kernels);
      if (w.word === T1 || w.word === T2) break;
      if (w.word === EOD) {
        this.feed(EOD, speaker);
        this.feed(speaker === 1 ? T1 : T2, speaker);
        return { words: out, end: true };
      }
      out.push(w.word);
      this.feed(w.word, speaker);
    }
    return { words: out, end: false };
  }

  hear(marker: string, speaker: number, utterance: string): void {
    this.feed(marker, speaker);
    for (const w of tokenizeText(utterance)) this.feed(w, speaker);
  }

  /** The conversation so far as an example for the state model. */
  example(): LearnedExample {
    return { ...this.ctx, dialogue: { tokens: this.words.slice(), speaker: Uint8Array.from(this.speaker) } };
  }
}

/** Options of the learned policies. */
export interface LearnedPolicyOptions {
  /** Longest decoded turn in words (default 40). */
  maxTurnWords?: number;
  /** Agent turns after which the agent ends the dialogue itself (default 12). */
  maxAgentTurns?: number;
  /** Draw words and the final state from the model's distributions with the session's stream (self-play for REINFORCE) instead of taking the most probable. */
  sample?: boolean;
  /**
   * Decoding kernels that every session of the policy runs on (`DialogueModel.decodeKernels` of
   * the policy's model), kept current by the caller (`decodeKernels(kernels)` after the weights
   * change; the same numbers as kernels made anew): a training loop that plays many short
   * sessions between updates (`rlTrain`). Default: each session makes its own at its start.
   */
  kernels?: DecodeKernels;
}

/** A session of `learnedAgent`: an agent session, and the encoding of its context (`DialogueModel.encode`, the weights of the session). */
export interface LearnedAgentSession extends AgentSession {
  readonly encoding: Encoded;
  /** The prepared context the encoding is of. */
  readonly context: Prepared;
}

/** The learned agent (agent model + state model) as an agent policy. */
export function learnedAgent(m: AirModels, o: LearnedPolicyOptions = {}): (context: KbLine, rng: Rng) => LearnedAgentSession {
  return (context: KbLine, rng: Rng): LearnedAgentSession => {
    const s = new Stream(m.agent, contextExample(context, null), o.maxTurnWords ?? 40, o.kernels);
    const draw = o.sample ? rng : undefined;
    let turns = 0;
    return {
      encoding: s.encoding,
      context: s.prepared,
      respond(customerUtterance: string): AgentMove {
        s.hear(T1, 0, customerUtterance);
        const { words, end } = s.speak(T2, 1, draw);
        turns++;
        const utterance = words.join(' ');
        if (!end && turns < (o.maxAgentTurns ?? 12)) return { utterance };
        if (!end) {
          s.feed(EOD, 1);
          s.feed(T1, 1);
        }
        return { utterance, action: m.agent.predictState(prepare(s.example(), m.vocab), draw, s.decodeKernels, s.encoding) };
      },
    };
  };
}

/** The learned customer model as a customer policy. */
export function learnedCustomer(m: AirModels, o: LearnedPolicyOptions = {}): CustomerPolicyFactory {
  return (intent: Intent, rng: Rng): CustomerSession => {
    const s = new Stream(m.customer, contextExample(null, intent), o.maxTurnWords ?? 40, o.kernels);
    const draw = o.sample ? rng : undefined;
    return {
      open: () => s.speak(T1, 0, draw).words.join(' '),
      respond(agentUtterance: string): string {
        s.hear(T2, 1, agentUtterance);
        return s.speak(T1, 0, draw).words.join(' ');
      },
    };
  };
}

/** Options of `learnedSelfPlay`. */
export interface LearnedSelfPlayOptions extends LearnedPolicyOptions {
  /** Agent: learned models, or a registered policy name via `agentFactory`. */
  agent: AgentPolicyFactory;
  customer: CustomerPolicyFactory;
  n: number;
  seed?: number;
  ood?: OodSetting;
  /** Utterances before an episode is truncated (default 40). */
  maxTurns?: number;
  onEpisode?: (done: number, total: number) => void;
  /** Called after each episode; `words` (with `bleu`) are its turns' words and the simulator's on the same context. */
  onResult?: (e: Episode, i: number, words?: EpisodeWords) => void;
  /** Only the episodes whose index passes (a sharded run's part). */
  include?: (i: number) => boolean;
  /** Also compute the BLEU of the generated turns against the simulator's dialogue on the same context (`bleu` in the report; default false). */
  bleu?: boolean;
}

/** BLEU-4 (0–100) of self-play turns against the simulator's references: the customer's, the agent's and both sides' segments. */
export interface SelfPlayBleu {
  readonly customer: number;
  readonly agent: number;
  readonly both: number;
}

/** One self-play episode's words per side, and the simulator's words on the same context (the BLEU references). */
export interface EpisodeWords {
  readonly customer: readonly string[];
  readonly agent: readonly string[];
  readonly refCustomer: readonly string[];
  readonly refAgent: readonly string[];
}

/** Corpus BLEU-4 (0–100) of self-play episodes against the simulator's: per side and both sides' segments. */
export function selfPlayBleu(episodes: readonly EpisodeWords[]): SelfPlayBleu {
  const bleu = (r: string[][][], h: string[][]) => 100 * corpusBleu(r, h).bleu;
  const hc = episodes.map((w) => [...w.customer]);
  const ha = episodes.map((w) => [...w.agent]);
  const rc = episodes.map((w) => [[...w.refCustomer]]);
  const ra = episodes.map((w) => [[...w.refAgent]]);
  return { customer: bleu(rc, hc), agent: bleu(ra, ha), both: bleu([...rc, ...ra], [...hc, ...ha]) };
}

/** Self-play scores, with the BLEU of the generated turns when asked for. */
export type LearnedSelfPlayReport = ScoreReport & { readonly bleu?: SelfPlayBleu };

/** One side's words over a whole dialogue (the paper's lower-case word tokens, turn after turn). */
function sideWords(e: Episode, speaker: 'user' | 'bot'): string[] {
  return e.dialogue.filter((t) => t.speaker === speaker).flatMap((t) => tokenizeText(t.text));
}

/**
 * Self-play of any agent and customer policies (learned or rule) on generated contexts
 * (in-domain or an OOD setting): the mean scaled and exact scores (the paper's Tables 9 and 10).
 */
export function learnedSelfPlay(o: LearnedSelfPlayOptions): LearnedSelfPlayReport {
  const context = oodContext(o.ood ?? 0);
  const env = new AirDialogueEnv({ customer: o.customer, context, ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}) });
  // the references: the templated simulator (rule customer vs rule agent) on the same context
  // (an episode's context depends on its seed only, env.reset), one segment per side and dialogue
  const refEnv = o.bleu ? new AirDialogueEnv({ customer: customerPolicies.get('rules'), context }) : null;
  const ruleAgent = agentPolicies.get('rules');
  const words: EpisodeWords[] = [];
  const report = selfPlayEpisodes(env, o.agent, {
    n: o.n,
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.include ? { include: o.include } : {}),
    ...(o.onEpisode ? { onEpisode: o.onEpisode } : {}),
    onResult: (e, i) => {
      let w: EpisodeWords | undefined;
      if (refEnv) {
        const r = selfPlayEpisode(refEnv, ruleAgent, episodeSeed(o.seed ?? 0, i));
        w = { customer: sideWords(e, 'user'), agent: sideWords(e, 'bot'), refCustomer: sideWords(r, 'user'), refAgent: sideWords(r, 'bot') };
        words.push(w);
      }
      o.onResult?.(e, i, w);
    },
  });
  return refEnv ? { ...report, bleu: selfPlayBleu(words) } : report;
}
