/**
 * The learned AirDialogue agents (Wei et al. 2018, §6): a customer model P(x_t | h_{t−1}, c_c) and
 * an agent model P(x_t | h_{t−1}, c_a), each a GRU over the dialogue with attention over its own
 * private context, and the agent's state model P(s_i | s_<i, h_T, c_a) that writes the final
 * state (status, flight, name).
 *
 * Shapes follow google/airdialogue_model: the customer's context (15 intent tokens) is encoded
 * token by token (`_build_encoder_simple`, build_graph.py ≈l.330); the agent's context
 * hierarchically (`_build_encoder_hierarchial`, build_graph.py ≈l.358: one RNN per flight, then
 * an RNN over the 30 flight vectors) — here each flight's 13 tokens go through a tanh MLP (the
 * tokens of a flight are fixed fields, so an RNN adds nothing but time), then a GRU over the
 * flights, whose last state joins the reservation flag to start the dialogue GRU.
 *
 * Figure 5's speed-up (the original decodes every turn from one pass over the dialogue,
 * `BasicDecoder` fed with `iterator.turns`, build_graph.py ≈l.140): one GRU reads the whole
 * dialogue stream once; the state after each token is the history h_{t−1} for the next one, and a
 * model's loss counts the tokens of its own turns only. No turn is re-encoded.
 *
 * Beyond the paper (it names pointer networks as the way to exact matches): the state model
 * points. The flight is a softmax over the KB's flights plus "none", each flight's key made of
 * its encoding, the dialogue state where the agent last said its number and a mentioned flag; the
 * first and last names are softmaxes over the positions of the customer's words (a copy of the
 * word there, so rare and unseen names work). The status is a softmax over the five statuses,
 * and the flight query is conditioned on it (s_<i).
 *
 * Both decoders also copy (a pointer-generator, See et al. 2017): the attention weights over the
 * context slots double as a distribution over the slots' words — the customer's intent values,
 * the flights' numbers — mixed with the vocabulary softmax by a learned gate g:
 * P(w) = g·softmax(logits)_w + (1 − g)·Σ_{slots i with word w} α_i. So the customer can say its
 * name, airports and dates and the agent a flight number exactly, even a word outside the
 * vocabulary (the slot's own word is emitted when `<unk>` is chosen by copying).
 */
import type { Rng } from '../../../core/rng.js';
import { STATUSES, type Action } from '../../../formats/airdialogue.js';
import { Embedding, Gru, GruStepper, Linear, RowSums, attend, attendRows, attendRowsBackward, pointerLoss, softmax, softmaxCrossEntropy, tanhBackward, tanhInPlace, gruBackwardPacked, gruForwardPacked, type GruPacked, type Param } from '../../../nn/index.js';
import { EOD, FIELDS, FLIGHT_FIELDS, T1, T2, Vocab } from './tokens.js';
import { CONSTRAINT_FEATURES, GLOBAL_FEATURES, constraintFeatures } from './constraints.js';
import type { LearnedExample } from './data.js';

/** Which side a dialogue model plays. */
export type Role = 'customer' | 'agent';

/** Sizes of a model: word/field embedding size and GRU state size. */
export interface ModelSizes {
  readonly dim: number;
  readonly hidden: number;
  /**
   * Agent only: the flight memory and the state model's flight keys also see which of each
   * flight's 13 values the customer has said so far (word identity, as the copy mechanism
   * compares words), so the attention and the pointer can follow the stated constraints.
   * Absent in model files written before it existed (false).
   */
  readonly match?: boolean;
  /**
   * Agent only: it says flight numbers by pointing only — its vocabulary softmax leaves out the
   * words of its slots (the flight numbers), so P(flight number) = (1 − g)·Σα over the flights
   * and which flight is named is the attention's choice (which sees the match flags). Absent in
   * older model files (false).
   */
  readonly point?: boolean;
  /**
   * Agent with `match`: the flags of the three departure/return pairs (airports, months, days)
   * also follow the order the customer said them in — the departure value said first (or
   * alone), the return value said after it — so a flight the other way round does not match.
   * Absent in older model files (false).
   */
  readonly order?: boolean;
  /**
   * Agent with `match`: the flight memory and the flight keys also hold the constraint
   * features of each flight (constraints.ts: each restriction the customer said, met or
   * violated; ok; the cheapest ok flight; whether any flight is ok), and the status and "none"
   * scores the flight-independent ones. Absent in older model files (false).
   */
  readonly constraints?: boolean;
}

/** Departure/return field pairs of a flight (a1/a2, m1/m2, d1/d2) whose match flags follow the order they were said in. */
const PAIRS: readonly (readonly [number, number])[] = [
  [0, 1],
  [2, 3],
  [4, 5],
];

/** An example with every token as a vocabulary id and the state model's targets. */
export interface Prepared {
  readonly ex: LearnedExample;
  readonly ids: Int32Array;
  readonly speaker: Uint8Array;
  /** Raw word per position (for copying names). */
  readonly words: readonly string[];
  readonly intentIds: Int32Array;
  readonly intentFields: Int32Array;
  /** n × 13 word ids and fields of the flights. */
  readonly flightIds: Int32Array;
  readonly flightFields: Int32Array;
  readonly nFlights: number;
  readonly resId: number;
  /** Word id and raw word of each of the customer's context slots (its intent values), for the customer's copying. */
  readonly slots: Int32Array;
  readonly slotWords: readonly string[];
  /**
   * Word id and raw word of each of the agent's context slots (the flight numbers), for the
   * agent's copying. (Before this field the agent's copy read `slots` too, which in training
   * were the customer's intent values whenever the example had an intent: the agent learned to
   * copy from the customer's private context, and in self-play copied flight numbers it had never
   * learned to point at.)
   */
  readonly flightSlots: Int32Array;
  readonly flightSlotWords: readonly string[];
  readonly resField: number;
  /** Position whose state the state model reads (the `<eod>` token, else the last). */
  readonly endPos: number;
  /** Customer word positions (name pointer candidates). */
  readonly namePositions: Int32Array;
  /** Per flight: the last agent position that says its number, −1 if none. */
  readonly mention: Int32Array;
  /** Targets: status index (−1 = not a known status), flight index (n = none, −1 = not in the KB), name positions (indices into namePositions). */
  readonly status: number;
  readonly flight: number;
  readonly first: readonly number[];
  readonly last: readonly number[];
}

const isMarker = (w: string): boolean => w === T1 || w === T2 || w === EOD;

/** Prepares an example for `vocab`. */
export function prepare(ex: LearnedExample, vocab: Vocab): Prepared {
  const words = ex.dialogue.tokens;
  const ids = Int32Array.from(words, (w) => vocab.id(w));
  const speaker = ex.dialogue.speaker;
  const eod = words.lastIndexOf(EOD);
  const nFlights = ex.flights.length;
  const flightIds = new Int32Array(nFlights * FLIGHT_FIELDS.length);
  const flightFields = new Int32Array(nFlights * FLIGHT_FIELDS.length);
  ex.flights.forEach((f, i) =>
    f.forEach((t, k) => {
      flightIds[i * FLIGHT_FIELDS.length + k] = vocab.id(t.word);
      flightFields[i * FLIGHT_FIELDS.length + k] = t.field;
    }),
  );
  const namePositions: number[] = [];
  words.forEach((w, t) => {
    if (speaker[t] === 0 && !isMarker(w)) namePositions.push(t);
  });
  const mention = new Int32Array(nFlights).fill(-1);
  const byNumber = new Map(ex.flightNumbers.map((n, i) => [String(n), i]));
  words.forEach((w, t) => {
    const f = byNumber.get(w);
    if (f !== undefined && speaker[t] === 1) mention[f] = t;
  });
  const a = ex.action;
  const status = (STATUSES as readonly string[]).indexOf(a.status);
  const fl = a.flight[0];
  const flight = fl === undefined ? nFlights : ex.flightNumbers.indexOf(fl);
  const [first = '', last = ''] = a.name.trim().toLowerCase().split(/\s+/);
  const hits = (name: string) => (name === '' ? [] : namePositions.flatMap((t, i) => (words[t] === name ? [i] : [])));
  const slotWords = ex.intent.map((t) => t.word);
  const flightSlotWords = ex.flightNumbers.map(String);
  return {
    ex,
    slots: Int32Array.from(slotWords, (w) => vocab.id(w)),
    slotWords,
    flightSlots: Int32Array.from(flightSlotWords, (w) => vocab.id(w)),
    flightSlotWords,
    ids,
    speaker,
    words,
    intentIds: Int32Array.from(ex.intent, (t) => vocab.id(t.word)),
    intentFields: Int32Array.from(ex.intent, (t) => t.field),
    flightIds,
    flightFields,
    nFlights,
    resId: vocab.id(ex.reservation.word),
    resField: ex.reservation.field,
    endPos: eod >= 0 ? eod : words.length - 1,
    namePositions: Int32Array.from(namePositions),
    mention,
    status,
    flight,
    first: hits(first),
    last: hits(last),
  };
}

/** Positions whose next token `speaker` (0 customer, 1 agent) predicts: the count that normalises its loss. */
export function countOwn(p: Prepared, speaker: number): number {
  let n = 0;
  for (let t = 0; t + 1 < p.speaker.length; t++) if (p.speaker[t] === speaker) n++;
  return n;
}

/** Losses of one example: the language-model loss summed over the role's tokens and the state loss. */
export interface ExampleLoss {
  lm: number;
  tokens: number;
  state: number;
}

/** A model's encoding of an example's private context (`DialogueModel.encode`). */
export interface Encoded {
  /** n × H memory: flight encodings (agent) or intent token encodings (customer). */
  mem: Float32Array;
  n: number;
  h0: Float32Array;
  /** Encoder inputs kept for backward (n rows of the context layer's input). */
  inputs: Float32Array;
  initIn: Float32Array;
  /** The flight GRU's run over the n flight encodings (agent). */
  flights: GruPacked | null;
}

const NF = FLIGHT_FIELDS.length;

function concat(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function addInto(dst: Float32Array, src: Float32Array, off = 0, n = dst.length): void {
  for (let i = 0; i < n; i++) dst[i] = dst[i]! + src[off + i]!;
}

/**
 * One side's dialogue model (and, for the agent, the state model). Parameters start at zero:
 * call `init(rng)` or load them.
 */
export class DialogueModel {
  readonly emb: Embedding;
  readonly fieldEmb: Embedding;
  readonly ctx: Linear;
  readonly flightGru: Gru | null;
  readonly initLayer: Linear;
  readonly gru: Gru;
  readonly query: Linear;
  readonly mix: Linear;
  readonly out: Linear;
  readonly copyGate: Linear;
  /** Agent with `sizes.match`: the customer-match features of a flight (13 flags, then the constraint features with `sizes.constraints`) into its memory vector. */
  readonly matchLayer: Linear | null;
  /** Agent with `sizes.constraints`: the flight-independent constraint features into the status logits and the "none" score. */
  readonly globalLayer: Linear | null;
  // state model (agent)
  readonly statusOut: Linear | null;
  readonly statusEmb: Embedding | null;
  readonly flightQuery: Linear | null;
  readonly flightKey: Linear | null;
  readonly noneScore: Linear | null;
  readonly nameKey: Linear[];
  readonly nameQuery: Linear[];
  readonly params: Param[];
  private readonly H: number;
  private readonly D: number;
  private readonly pointOnly: boolean;
  /** Match features per flight: 13 flags, plus the constraint features with `sizes.constraints`. */
  private readonly MF: number;
  /** Reused buffers of the readout's T × V arrays (the logits, the probabilities and their gradient): no garbage per batch. */
  private readonly buffers: Float32Array<ArrayBuffer>[] = [];

  constructor(
    readonly role: Role,
    readonly vocab: Vocab,
    readonly sizes: ModelSizes,
  ) {
    const { dim: D, hidden: H } = sizes;
    this.D = D;
    this.H = H;
    const V = vocab.size;
    const p = role;
    this.emb = new Embedding(V, D, `${p}.emb`);
    this.fieldEmb = new Embedding(FIELDS.length, D, `${p}.field`);
    const agent = role === 'agent';
    this.ctx = new Linear(agent ? NF * D : D, H, `${p}.ctx`);
    this.flightGru = agent ? new Gru(H, H, `${p}.flights`) : null;
    this.initLayer = new Linear(agent ? H + D : H, H, `${p}.init`);
    this.gru = new Gru(D, H, `${p}.gru`);
    this.query = new Linear(H, H, `${p}.query`, false);
    this.mix = new Linear(2 * H, H, `${p}.mix`);
    this.out = new Linear(H, V, `${p}.out`);
    this.copyGate = new Linear(H, 1, `${p}.copy`);
    const constraints = agent && sizes.match === true && sizes.constraints === true;
    this.MF = NF + (constraints ? CONSTRAINT_FEATURES : 0);
    this.matchLayer = agent && sizes.match ? new Linear(this.MF, H, `${p}.match`, false) : null;
    this.globalLayer = constraints ? new Linear(GLOBAL_FEATURES, STATUSES.length + 1, `${p}.global`) : null;
    this.pointOnly = agent && sizes.point === true;
    this.statusOut = agent ? new Linear(H, STATUSES.length, `${p}.status`) : null;
    this.statusEmb = agent ? new Embedding(STATUSES.length, H, `${p}.statusEmb`) : null;
    this.flightQuery = agent ? new Linear(H, H, `${p}.flightQuery`, false) : null;
    this.flightKey = agent ? new Linear(2 * H + 1 + (this.matchLayer ? this.MF : 0), H, `${p}.flightKey`) : null;
    this.noneScore = agent ? new Linear(H, 1, `${p}.none`) : null;
    this.nameKey = agent ? [0, 1].map((k) => new Linear(H + D, H, `${p}.nameKey${k}`)) : [];
    this.nameQuery = agent ? [0, 1].map((k) => new Linear(H, H, `${p}.nameQuery${k}`, false)) : [];
    const layers = [this.emb, this.fieldEmb, this.ctx, this.flightGru, this.initLayer, this.gru, this.query, this.mix, this.out, this.copyGate, this.matchLayer, this.globalLayer, this.statusOut, this.statusEmb, this.flightQuery, this.flightKey, this.noneScore, ...this.nameKey, ...this.nameQuery];
    this.params = layers.flatMap((l) => (l ? l.params : []));
  }

  init(rng: Rng): void {
    this.emb.init(rng.fork('emb'), 0.1);
    this.fieldEmb.init(rng.fork('field'), 0.1);
    for (const l of [this.ctx, this.initLayer, this.query, this.mix, this.out, this.copyGate, this.matchLayer, this.globalLayer, this.statusOut, this.flightQuery, this.flightKey, this.noneScore, ...this.nameKey, ...this.nameQuery]) l?.init(rng.fork(l.W.name));
    this.flightGru?.init(rng.fork('flightGru'));
    this.gru.init(rng.fork('gru'));
    this.statusEmb?.init(rng.fork('statusEmb'), 0.1);
  }

  /** A context token's input (its word's embedding plus its field's) into `out` at `at`. */
  private tokenInput(id: number, field: number, out: Float32Array, at: number): void {
    const e = this.emb.row(id);
    const f = this.fieldEmb.row(field);
    for (let i = 0; i < this.D; i++) out[at + i] = e[i]! + f[i]!;
  }

  /**
   * The match flags of every flight (n × 13): 1 where the flight's value of a field is a word
   * the customer has said (`said`: the customer's word ids so far, each with the position it was
   * first said at; `<pad>`/`<unk>` never match); with `sizes.order`, the departure/return pairs
   * also follow the order they were said in (ModelSizes.order). With `sizes.constraints`, each
   * flight's row (n × MF) continues with its constraint features for the customer's `words` so
   * far (constraints.ts), and `global` holds the flight-independent ones.
   */
  private matchFeatures(p: Prepared, said: ReadonlyMap<number, number>, words: readonly string[] = []): { m: Float32Array; global: Float32Array | null } {
    const MF = this.MF;
    const m = new Float32Array(p.nFlights * MF);
    for (let f = 0; f < p.nFlights; f++) {
      for (let k = 0; k < NF; k++) {
        const id = p.flightIds[f * NF + k]!;
        if (id > 1 && said.has(id)) m[f * MF + k] = 1;
      }
    }
    if (this.sizes.order) {
      for (let f = 0; f < p.nFlights; f++) {
        for (const [dep, ret] of PAIRS) {
          const a = said.get(p.flightIds[f * NF + dep]!);
          const b = said.get(p.flightIds[f * NF + ret]!);
          if (a !== undefined && b !== undefined && a > b) m[f * MF + dep] = 0;
          if (b !== undefined && (a === undefined || a > b)) m[f * MF + ret] = 0;
        }
      }
    }
    if (!this.globalLayer) return { m, global: null };
    const c = constraintFeatures(p.ex.flights, words);
    for (let f = 0; f < p.nFlights; f++) m.set(c.perFlight.subarray(f * CONSTRAINT_FEATURES, (f + 1) * CONSTRAINT_FEATURES), f * MF + NF);
    return { m, global: c.global };
  }

  /** The customer's word ids at positions before `t`, each with its first position, and its words there (markers excluded). */
  private saidBefore(p: Prepared, t: number): { said: Map<number, number>; words: string[] } {
    const said = new Map<number, number>();
    const words: string[] = [];
    for (let u = 0; u < t; u++) {
      if (p.speaker[u] !== 0) continue;
      if (!said.has(p.ids[u]!)) said.set(p.ids[u]!, u);
      if (!isMarker(p.words[u]!)) words.push(p.words[u]!);
    }
    return { said, words };
  }

  /** The flight memory with each flight's match flags projected in: mem_f + W_match·m_f. */
  private matchedMem(e: Encoded, m: Float32Array): Float32Array {
    const H = this.H;
    const mem = (this.matchLayer as Linear).forwardBatch(m, e.n);
    for (let i = 0; i < e.n * H; i++) mem[i] = mem[i]! + e.mem[i]!;
    return mem;
  }

  /**
   * The encoding a decoder step reads once the customer has said the words `said` (word id →
   * position first said at; `words`: the customer's words so far in order, markers excluded, for
   * `sizes.constraints`): with `sizes.match`, the flight memory holds the match flags (module
   * description); otherwise `e`.
   */
  withSaid(e: Encoded, p: Prepared, said: ReadonlyMap<number, number>, words: readonly string[] = []): Encoded {
    if (!this.matchLayer) return e;
    return { ...e, mem: this.matchedMem(e, this.matchFeatures(p, said, words).m) };
  }

  /** Encodes the model's private context (the context layer over the n slots as one matrix product). */
  encode(p: Prepared): Encoded {
    const H = this.H;
    const D = this.D;
    if (this.role === 'customer') {
      const n = p.intentIds.length;
      const inputs = new Float32Array(n * D);
      for (let i = 0; i < n; i++) this.tokenInput(p.intentIds[i]!, p.intentFields[i]!, inputs, i * D);
      const mem = tanhInPlace(this.ctx.forwardBatch(inputs, n));
      const mean = new Float32Array(H);
      for (let i = 0; i < n; i++) for (let k = 0; k < H; k++) mean[k] = mean[k]! + mem[i * H + k]! / n;
      const h0 = tanhInPlace(this.initLayer.forward(mean));
      return { mem, n, h0, inputs, initIn: mean, flights: null };
    }
    const n = p.nFlights;
    const inputs = new Float32Array(n * NF * D);
    for (let f = 0; f < n; f++) {
      for (let k = 0; k < NF; k++) this.tokenInput(p.flightIds[f * NF + k]!, p.flightFields[f * NF + k]!, inputs, (f * NF + k) * D);
    }
    const mem = tanhInPlace(this.ctx.forwardBatch(inputs, n));
    const flights = n > 0 ? gruForwardPacked(this.flightGru as Gru, new Float32Array(mem), new Array<number>(n).fill(1)) : null;
    const last = flights ? flights.rows.h.slice((n - 1) * H, n * H) : new Float32Array(H);
    const initIn = new Float32Array(H + D);
    initIn.set(last);
    this.tokenInput(p.resId, p.resField, initIn, H);
    const h0 = tanhInPlace(this.initLayer.forward(initIn));
    return { mem, n, h0, inputs, initIn, flights };
  }

  private encodeBackward(p: Prepared, e: Encoded, dMem: Float32Array, dh0: Float32Array): void {
    const H = this.H;
    const D = this.D;
    const dInit = new Float32Array(e.initIn.length);
    this.initLayer.backward(e.initIn, tanhBackward(e.h0, dh0), dInit);
    const dm = new Float32Array(dMem);
    if (this.role === 'customer') {
      for (let i = 0; i < e.n; i++) for (let k = 0; k < H; k++) dm[i * H + k] = dm[i * H + k]! + dInit[k]! / e.n;
    } else {
      if (e.flights) {
        const dh = new Float32Array(e.n * H);
        dh.set(dInit.subarray(0, H), (e.n - 1) * H);
        gruBackwardPacked(this.flightGru as Gru, e.flights, dh, dm);
      }
      const dRes = dInit.subarray(H, H + D);
      this.emb.backward(p.resId, dRes);
      this.fieldEmb.backward(p.resField, dRes);
    }
    const inSize = this.ctx.inputSize;
    const dx = new Float32Array(e.n * inSize);
    this.ctx.backwardBatch(e.inputs, tanhBackward(e.mem, dm), e.n, dx);
    for (let i = 0; i < e.n; i++) {
      if (this.role === 'customer') {
        const part = dx.subarray(i * D, (i + 1) * D);
        this.emb.backward(p.intentIds[i]!, part);
        this.fieldEmb.backward(p.intentFields[i]!, part);
      } else {
        for (let k = 0; k < NF; k++) {
          const part = dx.subarray((i * NF + k) * D, (i * NF + k + 1) * D);
          this.emb.backward(p.flightIds[i * NF + k]!, part);
          this.fieldEmb.backward(p.flightFields[i * NF + k]!, part);
        }
      }
    }
  }

  /** Output distribution's logits from state h over memory (returns the intermediates for backward). */
  private readout(h: Float32Array, e: Encoded, slots: Int32Array, k?: DecodeKernels, logitsOut?: Float32Array<ArrayBuffer>): { q: Float32Array; alpha: Float32Array; u: Float32Array; o: Float32Array; logits: Float32Array; g: number } {
    const H = this.H;
    const q = forwardOn(this.query, h, k?.query);
    const { alpha, context } = attend(q, e.mem, e.mem, e.n, H, H);
    const u = concat(h, context);
    const o = tanhInPlace(forwardOn(this.mix, u, k?.mix));
    const logits = forwardOn(this.out, o, k?.out, logitsOut);
    // with match flags the agent names flights by pointing only (ModelSizes.match)
    if (this.pointOnly) for (let i = 0; i < slots.length; i++) logits[slots[i]!] = -Infinity;
    const a = this.copyGate.forward(o)[0]!;
    const g = a >= 0 ? 1 / (1 + Math.exp(-a)) : Math.exp(a) / (1 + Math.exp(a));
    return { q, alpha, u, o, logits, g };
  }

  /** The first `n` entries of reused buffer `k` (grown as needed; contents left from earlier use). */
  private scratch(k: number, n: number): Float32Array<ArrayBuffer> {
    let b = this.buffers[k];
    if (!b || b.length < n) this.buffers[k] = b = new Float32Array(Math.max(n, 2 * (b?.length ?? 0)));
    return b.subarray(0, n);
  }

  /**
   * The positions whose next token this model predicts and, with `sizes.match`, the match (and
   * constraint) features of the flights each reads: `features[k]` (n × MF) for the stretch k
   * since the customer last said something new, `segment[i]` the stretch of position i (−1: no
   * match layer, the plain memory).
   */
  readoutPlan(p: Prepared): { positions: number[]; segment: Int32Array; features: Float32Array[] } {
    const positions: number[] = [];
    const seg: number[] = [];
    const features: Float32Array[] = [];
    const said = new Map<number, number>();
    const saidWords: string[] = [];
    let stale = this.matchLayer !== null;
    for (let t = 0; t < p.ids.length; t++) {
      if (this.matchLayer && p.speaker[t] === 0) {
        if (!said.has(p.ids[t]!)) {
          said.set(p.ids[t]!, t);
          stale = true;
        }
        if (this.globalLayer && !isMarker(p.words[t]!)) {
          saidWords.push(p.words[t]!);
          stale = true;
        }
      }
      if (!this.owns(p, t)) continue;
      if (stale) {
        features.push(this.matchFeatures(p, said, saidWords).m);
        stale = false;
      }
      positions.push(t);
      seg.push(features.length - 1);
    }
    return { positions, segment: Int32Array.from(seg), features };
  }

  /** The state model's match features and global constraint features for the whole dialogue (null without them). */
  stateInputs(p: Prepared): { match: Float32Array | null; global: Float32Array | null } {
    const sf = this.stateFeatures(p);
    return { match: sf.match, global: sf.global };
  }

  /** Whether position t's next token is this model's to predict. */
  private owns(p: Prepared, t: number): boolean {
    return p.speaker[t] === (this.role === 'agent' ? 1 : 0) && t + 1 < p.ids.length;
  }

  /**
   * Loss of one example (language model over the role's tokens, plus the state model for the
   * agent); with `backward`, accumulates the gradients of `lmScale·lm + stateScale·state`
   * (REINFORCE passes the advantage as both scales). `e`: `encode(p)` with the current weights
   * when the caller has it (the self-play session that played the dialogue).
   */
  loss(p: Prepared, backward = false, lmScale = 1, stateScale = 1, e?: Encoded): ExampleLoss {
    return this.lossBatch([p], backward, [lmScale], stateScale, e ? [e] : undefined)[0]!;
  }

  /**
   * `loss` of several examples at once, the dialogue GRU running over them as one packed batch
   * (time-major, longest first: `gruForwardPacked`); the gradients are those of the sum of
   * `lmScales[i]·lm_i + stateScale·state_i`. The losses are `loss`'s, bit for bit (each row of a
   * packed product is summed alone); the gradients differ in summation order only. `encoded`:
   * `encode(ps[i])` with the current weights where the caller has them.
   */
  lossBatch(ps: readonly Prepared[], backward = false, lmScales: readonly number[] = ps.map(() => 1), stateScale = 1, encoded?: readonly (Encoded | undefined)[]): ExampleLoss[] {
    const H = this.H;
    const D = this.D;
    if (ps.length === 0) return [];
    const es = ps.map((p, i) => encoded?.[i] ?? this.encode(p));
    const byLen = ps.map((_, i) => i).sort((a, b) => ps[b]!.ids.length - ps[a]!.ids.length || a - b);
    const len = (rank: number): number => ps[byLen[rank]!]!.ids.length;
    const sizes: number[] = [];
    const offsets: number[] = [];
    let rows = 0;
    for (let t = 0, n = ps.length; t < len(0); t++) {
      while (n > 0 && len(n - 1) <= t) n--;
      sizes.push(n);
      offsets.push(rows);
      rows += n;
    }
    const xs = new Float32Array(rows * D);
    sizes.forEach((n, t) => {
      for (let r = 0; r < n; r++) xs.set(this.emb.row(ps[byLen[r]!]!.ids[t]!), (offsets[t]! + r) * D);
    });
    const h0 = new Float32Array(ps.length * H);
    byLen.forEach((i, r) => h0.set(es[i]!.h0, r * H));
    const run = gruForwardPacked(this.gru, xs, sizes, h0);
    const dHs = new Float32Array(rows * H);
    const results: ExampleLoss[] = new Array(ps.length);
    const dMems: Float32Array[] = new Array(ps.length);
    const items: LmItem[] = ps.map((p, i) => {
      const r = byLen.indexOf(i);
      const at = (t: number): number => (offsets[t]! + r) * H;
      const caches = Array.from({ length: p.ids.length }, (_, t) => ({ h: run.rows.h.subarray(at(t), at(t) + H) }));
      const dh = (t: number): Float32Array => dHs.subarray(at(t), at(t) + H);
      return { p, e: es[i]!, caches, dh, dMem: new Float32Array(es[i]!.n * H), lmScale: lmScales[i] ?? 1 };
    });
    const lms = this.lmLossBatch(items, backward);
    items.forEach((it, i) => {
      const state = this.role === 'agent' ? this.stateLoss(it.p, it.e, it.caches, backward, it.dh, it.dMem, stateScale) : 0;
      results[i] = { lm: lms[i]!.lm, tokens: lms[i]!.tokens, state };
      dMems[i] = it.dMem;
    });
    if (backward) {
      const dxs = new Float32Array(rows * D);
      const dh0 = gruBackwardPacked(this.gru, run, dHs, dxs);
      sizes.forEach((n, t) => {
        for (let r = 0; r < n; r++) this.emb.backward(ps[byLen[r]!]!.ids[t]!, dxs.subarray((offsets[t]! + r) * D, (offsets[t]! + r + 1) * D));
      });
      byLen.forEach((i, r) => this.encodeBackward(ps[i]!, es[i]!, dMems[i]!, dh0.subarray(r * H, (r + 1) * H)));
    }
    return results;
  }

  /**
   * The language-model losses of several examples from their dialogue states (`caches`), their
   * gradients into each one's dh(t) and `dMem`: the readout of every predicted position of every
   * example at once (`readout` as matrix products over the T positions of the batch: the query,
   * the mix, the H×V output layer and the copy gate; the attention per position).
   */
  private lmLossBatch(items: readonly LmItem[], backward: boolean): { lm: number; tokens: number }[] {
    const H = this.H;
    const V = this.vocab.size;
    // with match flags, the memory changes when the customer speaks: one memory per stretch
    const rows: { item: number; t: number; mem: Float32Array; dMem: Float32Array; at: number }[] = [];
    const segments: { item: number; m: Float32Array; dMem: Float32Array }[] = [];
    let nAlpha = 0;
    items.forEach((it, k) => {
      const { p, e } = it;
      const plan = this.readoutPlan(p);
      const first = segments.length;
      for (const m of plan.features) segments.push({ item: k, m, dMem: new Float32Array(e.n * H) });
      const mems = plan.features.map((m) => this.matchedMem(e, m));
      plan.positions.forEach((t, i) => {
        const sg = plan.segment[i]!;
        rows.push({ item: k, t, mem: sg < 0 ? e.mem : mems[sg]!, dMem: sg < 0 ? it.dMem : segments[first + sg]!.dMem, at: nAlpha });
        nAlpha += e.n;
      });
    });
    const T = rows.length;
    const hs = new Float32Array(T * H);
    rows.forEach((r, i) => hs.set(items[r.item]!.caches[r.t]!.h, i * H));
    const qs = this.query.forwardBatch(hs, T);
    // the attention of the consecutive positions that read the same memory at once (`attendRows`)
    const groups: { i0: number; i1: number }[] = [];
    rows.forEach((r, i) => {
      if (i > 0 && r.mem === rows[i - 1]!.mem) groups[groups.length - 1]!.i1 = i + 1;
      else groups.push({ i0: i, i1: i + 1 });
    });
    const alphas = new Float32Array(nAlpha);
    const contexts = new Float32Array(T * H);
    for (const { i0, i1 } of groups) {
      const r = rows[i0]!;
      attendRows(qs.subarray(i0 * H), i1 - i0, r.mem, r.mem, items[r.item]!.e.n, H, H, alphas.subarray(r.at), contexts.subarray(i0 * H));
    }
    const us = new Float32Array(T * 2 * H);
    for (let i = 0; i < T; i++) {
      us.set(hs.subarray(i * H, (i + 1) * H), 2 * i * H);
      us.set(contexts.subarray(i * H, (i + 1) * H), (2 * i + 1) * H);
    }
    const os = tanhInPlace(this.mix.forwardBatch(us, T));
    const logits = this.out.forwardBatch(os, T, this.scratch(0, T * V));
    const gates = this.copyGate.forwardBatch(os, T);
    const slotsOf = (it: LmItem): Int32Array => (this.role === 'agent' ? it.p.flightSlots : it.p.slots);
    // with match flags the agent names flights by pointing only (ModelSizes.match)
    if (this.pointOnly) {
      rows.forEach((r, i) => {
        const slots = slotsOf(items[r.item]!);
        for (let k = 0; k < slots.length; k++) logits[i * V + slots[k]!] = -Infinity;
      });
    }
    const out = items.map(() => ({ lm: 0, tokens: 0 }));
    // backward: the softmax goes straight into the logits' gradient rows
    const probs = this.scratch(1, backward ? T * V : V);
    const gGate = new Float32Array(T);
    const dAlphas = new Float32Array(nAlpha);
    rows.forEach((r, i) => {
      const it = items[r.item]!;
      const n = it.e.n;
      const slots = slotsOf(it);
      const y = it.p.ids[r.t + 1]!;
      const a = gates[i]!;
      const g = a >= 0 ? 1 / (1 + Math.exp(-a)) : Math.exp(a) / (1 + Math.exp(a));
      const o = backward ? i * V : 0;
      const pv = probs.subarray(o, o + V);
      softmax(logits.subarray(i * V, (i + 1) * V), pv);
      let ay = 0;
      for (let k = 0; k < n; k++) if (slots[k] === y) ay += alphas[r.at + k]!;
      const pvy = pv[y]!;
      const py = Math.max(g * pvy + (1 - g) * ay, 1e-30);
      out[r.item]!.lm -= Math.log(py);
      out[r.item]!.tokens++;
      if (!backward) return;
      // P(y) = g·pv_y + (1 − g)·Σ_{slot = y} α: gradients of the logits, the gate and the weights
      const lmScale = it.lmScale;
      const k = (lmScale * g * pvy) / py;
      for (let j = 0; j < V; j++) pv[j] = k * pv[j]!;
      pv[y] = pv[y]! - k;
      gGate[i] = ((-lmScale * (pvy - ay)) / py) * g * (1 - g);
      for (let s = 0; s < n; s++) dAlphas[r.at + s] = slots[s] === y ? (-lmScale * (1 - g)) / py : 0;
    });
    if (backward) {
      const dOs = new Float32Array(T * H);
      this.out.backwardBatch(os, probs, T, dOs);
      this.copyGate.backwardBatch(os, gGate, T, dOs);
      const dUs = new Float32Array(T * 2 * H);
      this.mix.backwardBatch(us, tanhBackward(os, dOs), T, dUs);
      const dQs = new Float32Array(T * H);
      const dContexts = new Float32Array(T * H);
      rows.forEach((r, i) => {
        addInto(items[r.item]!.dh(r.t), dUs, 2 * i * H, H);
        dContexts.set(dUs.subarray((2 * i + 1) * H, (2 * i + 2) * H), i * H);
      });
      for (const { i0, i1 } of groups) {
        const r = rows[i0]!;
        attendRowsBackward(qs.subarray(i0 * H), i1 - i0, r.mem, r.mem, items[r.item]!.e.n, H, H, alphas.subarray(r.at), dContexts.subarray(i0 * H), { dq: dQs.subarray(i0 * H), dKeys: r.dMem, dValues: r.dMem, dAlpha: dAlphas.subarray(r.at) });
      }
      const dHs = new Float32Array(T * H);
      this.query.backwardBatch(hs, dQs, T, dHs);
      rows.forEach((r, i) => addInto(items[r.item]!.dh(r.t), dHs, i * H, H));
      for (const sg of segments) {
        const it = items[sg.item]!;
        addInto(it.dMem, sg.dMem);
        (this.matchLayer as Linear).backwardBatch(sg.m, sg.dMem, it.e.n);
      }
    }
    return out;
  }

  private flightKeyInput(p: Prepared, e: Encoded, caches: readonly GruState[], f: number, match: Float32Array | null): Float32Array {
    const H = this.H;
    const x = new Float32Array((this.flightKey as Linear).inputSize);
    x.set(e.mem.subarray(f * H, (f + 1) * H));
    const m = p.mention[f]!;
    if (m >= 0) {
      x.set(caches[m]!.h, H);
      x[2 * H] = 1;
    }
    if (match) x.set(match.subarray(f * this.MF, (f + 1) * this.MF), 2 * H + 1);
    return x;
  }

  private nameKeyInput(p: Prepared, caches: readonly GruState[], i: number): Float32Array {
    const t = p.namePositions[i]!;
    return concat(caches[t]!.h, this.emb.row(p.ids[t]!));
  }

  /**
   * What the state model reads of the customer's words besides the dialogue state: the match
   * (and constraint) features of every flight for the whole dialogue, and with
   * `sizes.constraints` the global layer's output (status logits, then the "none" score) and its input.
   */
  private stateFeatures(p: Prepared): StateFeatures {
    if (!this.matchLayer) return { match: null, global: null, globalOut: null };
    const before = this.saidBefore(p, p.endPos);
    const { m, global } = this.matchFeatures(p, before.said, before.words);
    return { match: m, global, globalOut: global ? (this.globalLayer as Linear).forward(global) : null };
  }

  /** Status logits from the final state (plus the global constraint features' part). */
  private statusLogits(hT: Float32Array, sf: StateFeatures): Float32Array {
    const logits = (this.statusOut as Linear).forward(hT);
    if (sf.globalOut) addInto(logits, sf.globalOut, 0, logits.length);
    return logits;
  }

  /** Flight scores (n flights, then none) given the state and the status the flight is conditioned on. */
  private flightScores(p: Prepared, e: Encoded, caches: readonly GruState[], hT: Float32Array, status: number, sf: StateFeatures) {
    const H = this.H;
    const qIn = new Float32Array(hT);
    if (status >= 0) addInto(qIn, (this.statusEmb as Embedding).row(status));
    const q = (this.flightQuery as Linear).forward(qIn);
    const inSize = (this.flightKey as Linear).inputSize;
    const keysIn = new Float32Array(e.n * inSize);
    for (let f = 0; f < e.n; f++) keysIn.set(this.flightKeyInput(p, e, caches, f, sf.match), f * inSize);
    const keys = (this.flightKey as Linear).forwardBatch(keysIn, e.n);
    const scores = new Float32Array(e.n + 1);
    for (let f = 0; f < e.n; f++) {
      let s = 0;
      for (let j = 0; j < H; j++) s += q[j]! * keys[f * H + j]!;
      scores[f] = s;
    }
    scores[e.n] = (this.noneScore as Linear).forward(hT)[0]! + (sf.globalOut ? sf.globalOut[STATUSES.length]! : 0);
    return { qIn, q, keysIn, keys, scores };
  }

  private nameScores(p: Prepared, caches: readonly GruState[], hT: Float32Array, k: number) {
    const H = this.H;
    const q = this.nameQuery[k]!.forward(hT);
    const n = p.namePositions.length;
    const inSize = this.nameKey[k]!.inputSize;
    const keysIn = new Float32Array(n * inSize);
    for (let i = 0; i < n; i++) keysIn.set(this.nameKeyInput(p, caches, i), i * inSize);
    const keys = this.nameKey[k]!.forwardBatch(keysIn, n);
    const scores = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const key = keys.subarray(i * H, (i + 1) * H);
      let s = 0;
      for (let j = 0; j < H; j++) s += q[j]! * key[j]!;
      scores[i] = s;
    }
    return { q, keysIn, keys, scores };
  }

  private stateLoss(p: Prepared, e: Encoded, caches: readonly GruState[], backward: boolean, dh: (t: number) => Float32Array, dMem: Float32Array, scale: number): number {
    const H = this.H;
    const D = this.D;
    const hT = caches[p.endPos]!.h;
    const dhT = new Float32Array(H);
    let loss = 0;
    const sf = this.stateFeatures(p);
    const dGlobal = new Float32Array(STATUSES.length + 1);
    // status
    if (p.status >= 0) {
      const logits = this.statusLogits(hT, sf);
      const g = new Float32Array(logits.length);
      loss += softmaxCrossEntropy(logits, p.status, g);
      scaleInPlace(g, scale);
      if (backward) (this.statusOut as Linear).backward(hT, g, dhT);
      dGlobal.set(g);
    }
    // flight, conditioned on the true status (teacher forcing)
    if (p.flight >= 0) {
      const fs = this.flightScores(p, e, caches, hT, p.status, sf);
      const g = new Float32Array(e.n + 1);
      loss += pointerLoss(fs.scores, [p.flight], g);
      scaleInPlace(g, scale);
      if (backward) {
        const dq = new Float32Array(H);
        const dk = new Float32Array(e.n * H);
        for (let f = 0; f < e.n; f++) {
          const s = g[f]!;
          for (let j = 0; j < H; j++) {
            dq[j] = dq[j]! + s * fs.keys[f * H + j]!;
            dk[f * H + j] = s * fs.q[j]!;
          }
        }
        const inSize = (this.flightKey as Linear).inputSize;
        const dx = new Float32Array(e.n * inSize);
        (this.flightKey as Linear).backwardBatch(fs.keysIn, dk, e.n, dx);
        for (let f = 0; f < e.n; f++) {
          addInto(dMem.subarray(f * H, (f + 1) * H), dx, f * inSize, H);
          const m = p.mention[f]!;
          if (m >= 0) addInto(dh(m), dx, f * inSize + H, H);
        }
        (this.noneScore as Linear).backward(hT, new Float32Array([g[e.n]!]), dhT);
        dGlobal[STATUSES.length] = g[e.n]!;
        const dqIn = new Float32Array(H);
        (this.flightQuery as Linear).backward(fs.qIn, dq, dqIn);
        addInto(dhT, dqIn);
        if (p.status >= 0) (this.statusEmb as Embedding).backward(p.status, dqIn);
      }
    }
    // names
    for (let k = 0; k < 2; k++) {
      const targets = k === 0 ? p.first : p.last;
      if (targets.length === 0) continue;
      const ns = this.nameScores(p, caches, hT, k);
      const g = new Float32Array(ns.scores.length);
      loss += pointerLoss(ns.scores, targets, g);
      scaleInPlace(g, scale);
      if (!backward) continue;
      const dq = new Float32Array(H);
      const n = ns.scores.length;
      const dk = new Float32Array(n * H);
      for (let i = 0; i < n; i++) {
        const s = g[i]!;
        for (let j = 0; j < H; j++) {
          dq[j] = dq[j]! + s * ns.keys[i * H + j]!;
          dk[i * H + j] = s * ns.q[j]!;
        }
      }
      const dx = new Float32Array(n * (H + D));
      this.nameKey[k]!.backwardBatch(ns.keysIn, dk, n, dx);
      for (let i = 0; i < n; i++) {
        const t = p.namePositions[i]!;
        addInto(dh(t), dx, i * (H + D), H);
        this.emb.backward(p.ids[t]!, dx.subarray(i * (H + D) + H, (i + 1) * (H + D)));
      }
      this.nameQuery[k]!.backward(hT, dq, dhT);
    }
    if (backward) addInto(dh(p.endPos), dhT);
    if (backward && sf.global) (this.globalLayer as Linear).backward(sf.global, dGlobal);
    return loss;
  }

  /**
   * The state model's prediction for a whole (true or generated) dialogue: status, flight, name —
   * the most probable of each, or drawn from the model's distributions when `rng` is given.
   * `k`: decoding kernels of the current weights to run the dialogue on (default: made now);
   * `e`: `encode(p)` with the current weights when the caller has it (a decoding session's).
   */
  predictState(p: Prepared, rng?: Rng, k?: DecodeKernels, e: Encoded = this.encode(p)): Action {
    if (this.role !== 'agent') throw new Error('predictState: only the agent model has a state model');
    const caches = this.states(p, e.h0, k ?? this.decodeKernels());
    const hT = caches[p.endPos]!.h;
    const sf = this.stateFeatures(p);
    const status = choose(probs(this.statusLogits(hT, sf)), rng);
    const fs = this.flightScores(p, e, caches, hT, status, sf);
    const f = choose(probs(fs.scores), rng);
    const name = [0, 1].map((k) => {
      if (p.namePositions.length === 0) return '';
      const i = choose(probs(this.nameScores(p, caches, hT, k).scores), rng);
      const w = p.words[p.namePositions[i]!] ?? '';
      return w.charAt(0).toUpperCase() + w.slice(1);
    });
    const st = STATUSES[status] as string;
    return { status: st, name: name.join(' ').trim(), flight: f < e.n ? [p.ex.flightNumbers[f]!] : [] };
  }

  /**
   * The kernels of decoding with the weights as they are now (nn/row-sums.ts: the output layer
   * and the dialogue GRU on WebAssembly SIMD, the numbers of `Linear.forward` and `Gru.step` bit
   * for bit); parts are absent without WebAssembly SIMD (or for an odd hidden size). After the
   * weights change, make new ones or pass the old ones as `reuse`: they then hold the current
   * weights (copied in, no new WebAssembly instances) and are returned.
   */
  decodeKernels(reuse?: DecodeKernels): DecodeKernels {
    if (reuse) {
      reuse.out?.load(this.out.W.data);
      reuse.query?.load(this.query.W.data);
      reuse.mix?.load(this.mix.W.data);
      reuse.gru?.reload(this.gru);
      return reuse;
    }
    const held = (l: Linear): RowSums | undefined => RowSums.create(l.W.data, l.outputSize, l.inputSize);
    const [out, query, mix, gru] = [held(this.out), held(this.query), held(this.mix), GruStepper.create(this.gru)];
    return { ...(out ? { out } : {}), ...(query ? { query } : {}), ...(mix ? { mix } : {}), ...(gru ? { gru } : {}) };
  }

  /** The dialogue GRU's next state (`Gru.step`'s, through `k.gru` when there is one). */
  gruStep(x: Float32Array, h: Float32Array, k?: DecodeKernels): Float32Array {
    return k?.gru ? k.gru.step(x, h) : this.gru.step(x, h).h;
  }

  /** The dialogue GRU's state after each token of `p`, from h0. */
  private states(p: Prepared, h0: Float32Array, k: DecodeKernels): GruState[] {
    const out: GruState[] = [];
    let h = h0;
    for (let t = 0; t < p.ids.length; t++) {
      h = this.gruStep(this.emb.row(p.ids[t]!), h, k);
      out.push({ h });
    }
    return out;
  }

  /**
   * The most probable next word from state h under the copy mixture (module description), or one
   * drawn from the mixture when `rng` is given (self-play for REINFORCE); never
   * `<pad>`, and `<unk>` only by copying a slot whose word is outside the vocabulary (that word is
   * returned).
   */
  nextWord(h: Float32Array, e: Encoded, p: Pick<Prepared, 'slots' | 'slotWords' | 'flightSlots' | 'flightSlotWords'>, rng?: Rng, k?: DecodeKernels): NextWord {
    const [slots, slotWords] = this.role === 'agent' ? [p.flightSlots, p.flightSlotWords] : [p.slots, p.slotWords];
    // the V logits and probabilities of a decoded word in reused buffers (no garbage per word)
    const V = this.vocab.size;
    const r = this.readout(h, e, slots, k, this.scratch(2, V));
    const prob = this.scratch(3, V);
    softmax(r.logits, prob);
    for (let j = 0; j < prob.length; j++) prob[j] = prob[j]! * r.g;
    for (let i = 0; i < e.n; i++) prob[slots[i]!] = prob[slots[i]!]! + (1 - r.g) * r.alpha[i]!;
    prob[0] = -1;
    let unkCopy = 0;
    let unkSlot = -1;
    for (let i = 0; i < e.n; i++) {
      if (slots[i] === 1 && r.alpha[i]! > unkCopy) {
        unkCopy = r.alpha[i]!;
        unkSlot = i;
      }
    }
    if (unkSlot < 0) prob[1] = -1;
    const id = choose(prob, rng);
    return { id, word: id === 1 && unkSlot >= 0 ? slotWords[unkSlot]! : this.vocab.words[id]! };
  }

  /**
   * Greedy decoding of every turn of this model's role from the true history before it (the
   * dialogue is read once; each turn is decoded from the state at its opening marker). Returns the
   * generated and the true word lists, turn by turn.
   */
  decodeTurns(p: Prepared, maxLen = 40): { generated: string[][]; reference: string[][] } {
    const e = this.encode(p);
    const k = this.decodeKernels();
    const caches = this.states(p, e.h0, k);
    const marker = this.vocab.id(this.role === 'agent' ? T2 : T1);
    const stops = new Set([this.vocab.id(T1), this.vocab.id(T2), this.vocab.id(EOD)]);
    const generated: string[][] = [];
    const reference: string[][] = [];
    for (let t = 0; t < p.ids.length; t++) {
      if (p.ids[t] !== marker) continue;
      const ref: string[] = [];
      for (let u = t + 1; u < p.ids.length && !stops.has(p.ids[u]!); u++) ref.push(p.words[u]!);
      reference.push(ref);
      let h = caches[t]!.h;
      const gen: string[] = [];
      const before = this.saidBefore(p, t);
      const et = this.withSaid(e, p, before.said, before.words);
      for (let n = 0; n < maxLen; n++) {
        const w = this.nextWord(h, et, p, undefined, k);
        if (stops.has(w.id)) break;
        gen.push(w.word);
        h = this.gruStep(this.emb.row(w.id), h, k);
      }
      generated.push(gen);
    }
    return { generated, reference };
  }
}

/** One example of `lmLossBatch`: its encoding, dialogue states, where their gradients go and its loss scale. */
interface LmItem {
  readonly p: Prepared;
  readonly e: Encoded;
  readonly caches: readonly GruState[];
  readonly dh: (t: number) => Float32Array;
  readonly dMem: Float32Array;
  readonly lmScale: number;
}

/** What the state model reads of a GRU step: its new state. */
interface GruState {
  readonly h: Float32Array;
}

interface StateFeatures {
  /** n × MF match (and constraint) features of the flights, null without `sizes.match`. */
  match: Float32Array | null;
  /** The global constraint features and the global layer's output (`sizes.constraints`), else null. */
  global: Float32Array | null;
  globalOut: Float32Array | null;
}

/** Decoding kernels of a model's current weights (`DialogueModel.decodeKernels`). */
export interface DecodeKernels {
  readonly out?: RowSums;
  readonly query?: RowSums;
  readonly mix?: RowSums;
  readonly gru?: GruStepper;
}

/** `layer.forward(x)` (into `out` when given), on `held` (the layer's weights in `RowSums`) when given: the same numbers, bit for bit. */
function forwardOn(layer: Linear, x: Float32Array, held: RowSums | undefined, out?: Float32Array<ArrayBuffer>): Float32Array {
  if (!held) return layer.forward(x, out);
  held.start(layer.b?.data ?? null);
  held.add(x);
  if (!out) return Float32Array.from(held.sums);
  out.set(held.sums);
  return out;
}

export interface NextWord {
  readonly id: number;
  readonly word: string;
}

function scaleInPlace(x: Float32Array, k: number): void {
  if (k !== 1) for (let i = 0; i < x.length; i++) x[i] = x[i]! * k;
}

/** An index drawn with probability proportional to the non-negative weights `w` (argmax without `rng`). */
function choose(w: Float32Array, rng?: Rng): number {
  if (!rng) return argmax(w);
  let z = 0;
  for (let i = 0; i < w.length; i++) z += Math.max(0, w[i]!);
  let u = rng.next() * z;
  for (let i = 0; i < w.length; i++) {
    u -= Math.max(0, w[i]!);
    if (u < 0) return i;
  }
  return argmax(w);
}

function probs(scores: Float32Array): Float32Array {
  const p = new Float32Array(scores.length);
  softmax(scores, p);
  return p;
}

function argmax(x: Float32Array): number {
  let best = 0;
  for (let i = 1; i < x.length; i++) if (x[i]! > x[best]!) best = i;
  return best;
}
