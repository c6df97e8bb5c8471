/**
 * KB-InfoBot's soft path against the official code, and what moves Rule-Soft (issue 40, the Rule-Soft
 * Medium R cell; docs/notes/infobot-soft-kb.md).
 *
 * 1. A second, independent implementation of the official Rule-Soft agent, written from
 *    MiuLab/KB-InfoBot (commit 0a94ec4) file by file — the tokeniser of `deep_dialog/tools.py`
 *    `to_tokens`, the tracker of `deep_dialog/agents/belief_tracker.py` `_update_state`, the posterior
 *    of `deep_dialog/agents/softDB.py` `_check_db`, the slot entropies of `deep_dialog/agents/utils.py`
 *    `calc_entropies`, the decision of `deep_dialog/agents/agent_nl_rule_soft.py` `next` — is fed the
 *    same utterances as dialogym's `RuleAgent(…, 'soft')` (lockstep, following dialogym's action), and
 *    every differing decision is counted; then it plays its own dialogs (T / S / R), with dialogym's
 *    slot-name phrases and with the official matcher, which reads only the literal slot names.
 * 2. The three rule agents over KB seeds 1–5 (is the cell a draw of the KB?).
 * 3. The three rule agents with one property of the simulator or the KB changed at a time.
 * 4. What each rule agent had heard when it informed: heard slots per dialog, and the dialogs whose
 *    heard values (the tracker's most likely value of every slot it heard a value for) were all the
 *    target's, or not, with the success rate of each.
 * 5. Rule-Soft asking the slot of lowest entropy first (`order: 'min-entropy'`) instead of the
 *    official code's highest (`agent_nl_rule_soft.py` sorts with reverse=True), on every split given.
 *
 *   node dist/bench/infobot-soft.bench.js [episodes] [eval seeds] [splits of parts 1–2]      (defaults: 5000, 1, medium)
 *
 * Prints Markdown; T / S / R are means over the evaluation seeds. Runs on one thread (about 1 min
 * with the defaults).
 */
import { loadavg } from 'node:os';
import { createRng, type Rng } from '../src/core/rng.js';
import { processDone } from '../src/core/exit.js';
import { InfoBotEnv, episodeSeed, type InfoBotEnvOptions } from '../src/testbeds/infobot/env.js';
import { agentContext, runInfoBotEpisode, summarize, type EvalReport } from '../src/testbeds/infobot/episodes.js';
import { argmax, RULE_DEFAULTS, RuleAgent, type KbAccess } from '../src/testbeds/infobot/agents/rule-agents.js';
import type { InfoBotAgent } from '../src/testbeds/infobot/agents/agent.js';
import type { InfoBotAction } from '../src/testbeds/infobot/acts.js';
import { generateMovieKb, SPLIT_GEN, type KbGenOptions, type SplitKbs } from '../src/testbeds/infobot/generate.js';
import { MISSING, MovieKb } from '../src/testbeds/infobot/movie-kb.js';
import { entropy, projectedSlot } from '../src/testbeds/infobot/soft-kb.js';
import { contentTokens } from '../src/testbeds/infobot/text.js';
import { HandCraftedTracker, slotNameMatches } from '../src/testbeds/infobot/tracker.js';
import { M, SLOTS, splitSpec, type SplitName } from '../src/testbeds/infobot/slots.js';

const episodes = Number(process.argv[2] ?? 5000);
const evalSeeds = (process.argv[3] ?? '1').split(',').map(Number);
const split = 'medium';
const seedSplits = (process.argv[4] ?? split).split(',') as SplitName[];
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const cpu0 = process.cpuUsage();
const wall0 = performance.now();

// ---------------------------------------------------------------------------------------------
// 1. The official Rule-Soft agent, re-implemented from the official files (not from dialogym's).

/** NLTK's English stop-word list (`nltk.corpus.stopwords.words('english')`), which `to_tokens` drops. */
const NLTK_STOP = new Set(
  (
    "i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him his himself she " +
    "she's her hers herself it it's its itself they them their theirs themselves what which who whom this that that'll these " +
    'those am is are was were be been being have has had having do does did doing a an the and but if or because as until ' +
    'while of at by for with about against between into through during before after above below to from up down in out on ' +
    'off over under again further then once here there when where why how all any both each few more most other some such ' +
    "no nor not only own same so than too very s t can will just don don't should should've now d ll m o re ve y ain aren " +
    "aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't " +
    "mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't"
  ).split(' '),
);
/** `tools.py` `to_tokens`: drop every punctuation character, lower-case, split, drop stop words. */
const officialTokens = (text: string): string[] =>
  text
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && !NLTK_STOP.has(w));

type SlotNames = 'official' | 'phrases';

/** One dialog of the official `AgentNLRuleSoft`: `decide` reads an utterance and proposes an action; `commit` applies the action taken. */
class OfficialRuleSoft {
  private readonly byToken: Map<string, number[]>[];
  private readonly slotTokens: string[][];
  private readonly initial: Float64Array;
  private counts: Float64Array[] = [];
  private readonly deleted = new Set<number>();
  private readonly requests = new Int32Array(M);
  private prev: number | null = null;
  /** Largest spread of a row's log-probability seen (`_check_db` exponentiates it in float32: overflow above 88.7). */
  maxLogRange = 0;

  constructor(
    private readonly kb: MovieKb,
    private readonly o: { tr: number; ts: number; frac: number; maxReq: number; upd: number; slotNames: SlotNames },
  ) {
    // movie_dict.py `_build_token_index`: token → values of the slot.
    this.byToken = kb.vocab.map((values) => {
      const m = new Map<string, number[]>();
      values.forEach((v, k) => {
        for (const w of officialTokens(v)) m.set(w, [...(m.get(w) ?? []), k]);
      });
      return m;
    });
    // database.py `_prepare_for_search`: the slot's own name, tokenised ('critic_rating' → 'criticrating').
    this.slotTokens = SLOTS.map((s) => officialTokens(s));
    // agent_nl_rule_soft.py `initialize_episode`: calc_entropies with a uniform posterior.
    this.initial = this.slotEntropies(new Float64Array(kb.n).fill(1 / kb.n));
  }

  begin(): void {
    this.counts = this.kb.priors.map((p) => new Float64Array(p)); // belief_tracker.py `_init_beliefs`
    this.deleted.clear();
    this.requests.fill(0);
    this.prev = null;
  }

  /** belief_tracker.py `_update_state`. */
  private update(utterance: string): void {
    const st = officialTokens(utterance);
    const named =
      this.o.slotNames === 'phrases'
        ? slotNameMatches(contentTokens(utterance))
        : this.slotTokens.map((t) => t.filter((w) => st.includes(w)).length / t.length);
    for (let j = 0; j < M; j++) {
      if (this.deleted.has(j)) continue; // a deleted slot is no longer in database.slots
      const found = new Map<number, number>();
      for (const w of st) for (const k of this.byToken[j]?.get(w) ?? []) found.set(k, (found.get(k) ?? 0) + 1);
      const requested = this.prev === j ? 1 : 0;
      if (found.size === 0) {
        if (requested) {
          this.deleted.add(j); // delete_slot; num_requests = 1000
          this.requests[j] = 1000;
        }
        continue;
      }
      for (const [k, f] of found) {
        const match = f / (this.kb.vocab[j]?.[k] ?? '').split(/\s+/).length;
        (this.counts[j] as Float64Array)[k] = ((this.counts[j] as Float64Array)[k] as number) + this.o.upd * (match + requested + ((named[j] as number) > 0 ? (named[j] as number) : 0));
      }
    }
  }

  /** softDB.py `_check_db`: ∏_j p̃_j(T_ij) / n_j(T_ij), a missing cell p_unk / n_unk. */
  posterior(): Float64Array {
    const kb = this.kb;
    const n = kb.n;
    const logp = new Float64Array(n);
    for (let j = 0; j < M; j++) {
      if (this.deleted.has(j)) continue;
      const c = this.counts[j] as Float64Array;
      let sum = 0;
      for (const x of c) sum += x;
      const pUnk = (kb.missing[j] as number) / n;
      for (let i = 0; i < n; i++) {
        const v = kb.cells[i * M + j] as number;
        logp[i] = (logp[i] as number) + Math.log(v === MISSING ? pUnk / (kb.missing[j] as number) : (((c[v] as number) / sum) * (1 - pUnk)) / ((kb.counts[j] as Float64Array)[v] as number));
      }
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (const x of logp) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    this.maxLogRange = Math.max(this.maxLogRange, hi - lo);
    const p = new Float64Array(n);
    let z = 0;
    for (let i = 0; i < n; i++) z += p[i] = Math.exp((logp[i] as number) - hi);
    for (let i = 0; i < n; i++) p[i] = (p[i] as number) / z;
    return p;
  }

  /** utils.py `calc_entropies` (a deleted slot: 0). */
  slotEntropies(p: Float64Array): Float64Array {
    const h = new Float64Array(M);
    for (let j = 0; j < M; j++) h[j] = this.deleted.has(j) ? 0 : entropy(projectedSlot(this.kb, p, j));
    return h;
  }

  /** agent_nl_rule_soft.py `next`: the proposed action (nothing committed). */
  decide(utterance: string): InfoBotAction {
    this.update(utterance);
    const p = this.posterior();
    // softDB.py `_inform`: np.argsort(probs)[::-1], ties by descending row index.
    const inform = (): InfoBotAction => ({ act: 'inform', results: Array.from(p, (_, i) => i).sort((a, b) => (p[b] as number) - (p[a] as number) || b - a).slice(0, 5) });
    if (entropy(p) < this.o.tr) return inform();
    const h = this.slotEntropies(p);
    const order = Array.from({ length: M }, (_, j) => j).sort((a, b) => (h[b] as number) - (h[a] as number) || a - b);
    for (const j of order) {
      const hj = h[j] as number;
      if (hj < this.o.frac * (this.initial[j] as number) || hj < this.o.ts || (this.requests[j] as number) >= this.o.maxReq) continue;
      return { act: 'request', slot: SLOTS[j] as (typeof SLOTS)[number] };
    }
    return inform();
  }

  commit(a: InfoBotAction): void {
    if (a.act === 'request') {
      const j = SLOTS.indexOf(a.slot);
      this.requests[j] = (this.requests[j] as number) + 1;
      this.prev = j;
    } else this.prev = null;
  }
}

const officialOptions = (on: SplitName, slotNames: SlotNames) => {
  const d = RULE_DEFAULTS[on].soft; // config_imdb-{S,M,L,XL}.py nl-rule-soft
  return { tr: d.informEntropy, ts: d.slotEntropy, frac: d.fraction, maxReq: d.maxRequests, upd: d.update, slotNames };
};
const baseEnv = new InfoBotEnv({ split });
const ctx = agentContext(baseEnv);

const fig = (r: { turns: number; success: number; reward: number }): string => `${r.turns.toFixed(2)} / ${r.success.toFixed(3)} / ${r.reward.toFixed(3)}`;
const mean = (rs: readonly EvalReport[]): { turns: number; success: number; reward: number } => ({
  turns: rs.reduce((a, r) => a + r.turns, 0) / rs.length,
  success: rs.reduce((a, r) => a + r.success, 0) / rs.length,
  reward: rs.reduce((a, r) => a + r.reward, 0) / rs.length,
});
const play = (env: InfoBotEnv, make: () => InfoBotAgent): EvalReport[] =>
  evalSeeds.map((seed) => {
    const agent = make();
    return summarize(agent.name, env.split, Array.from({ length: episodes }, (_, i) => runInfoBotEpisode(env, agent, false, episodeSeed(seed, i))));
  });

process.stdout.write(`# KB-InfoBot soft path, ${episodes} dialogs × eval seeds ${evalSeeds.join(', ')}; load ${load()}\n\n## 1. dialogym's Rule-Soft against the official agent re-implemented\n\n`);
for (const on of seedSplits) {
  const env = on === split ? baseEnv : new InfoBotEnv({ split: on });
  const c = agentContext(env);
  for (const slotNames of ['phrases', 'official'] as const) {
    let turns = 0;
    let acts = 0;
    let slots = 0;
    let informs = 0;
    let ranks = 0;
    for (const seed of evalSeeds) {
      const ours = new RuleAgent(c, 'soft');
      const official = new OfficialRuleSoft(env.kb, officialOptions(on, slotNames));
      const lockstep: InfoBotAgent = {
        name: 'lockstep',
        begin(rng: Rng) {
          ours.begin(rng);
          official.begin();
        },
        act(u: string) {
          const a = ours.act(u);
          const b = official.decide(u);
          turns++;
          if (a.act !== b.act) acts++;
          else if (a.act === 'request' && b.act === 'request' && a.slot !== b.slot) slots++;
          else if (a.act === 'inform' && b.act === 'inform') {
            informs++;
            if (a.results.indexOf(env.goal.target) !== b.results.indexOf(env.goal.target)) ranks++;
          }
          official.commit(a);
          return a;
        },
      };
      for (let i = 0; i < episodes; i++) runInfoBotEpisode(env, lockstep, false, episodeSeed(seed, i));
    }
    const own = new OfficialRuleSoft(env.kb, officialOptions(on, slotNames));
    const solo = mean(play(env, () => ({ name: 'official', begin: () => own.begin(), act: (u: string) => { const a = own.decide(u); own.commit(a); return a; } })));
    process.stdout.write(
      `- ${on}, slot names read as ${slotNames === 'phrases' ? "dialogym's phrases (`SLOT_PHRASES`)" : 'the official matcher (the literal slot names)'}: ${turns} decisions on dialogym's dialogs, ` +
        `${acts} with another act, ${slots} another slot; of ${informs} informs, ${ranks} with the target at another rank (ties: official by row index, dialogym at random). ` +
        `Its own dialogs T / S / R ${fig(solo)}; largest log-probability spread over the rows ${own.maxLogRange.toFixed(1)} (float32 exp overflows above 88.7).\n`,
    );
  }
  process.stdout.write(`- ${on}, dialogym's RuleAgent('soft'): T / S / R ${fig(mean(play(env, () => new RuleAgent(c, 'soft'))))}\n`);
}

// ---------------------------------------------------------------------------------------------
// 2–3. The rule agents over KB seeds and under one change at a time.

const RULES: readonly [string, KbAccess][] = [
  ['rule-soft', 'soft'],
  ['rule-nokb', 'none'],
  ['rule-hard', 'hard'],
];
function kbsWith(kbSeed: number, gen: Partial<KbGenOptions>, missing = 0.2, reshape: (kb: MovieKb) => MovieKb = (kb) => kb): SplitKbs {
  const spec = splitSpec(split);
  const rng = createRng(kbSeed).fork(`kb:${spec.name}`); // as splitKbs
  const full = reshape(generateMovieKb(rng.fork('full'), { movies: spec.movies, maxVocab: spec.maxVocab, ...SPLIT_GEN[spec.name], ...gen }));
  return { full, incomplete: full.withHidden(missing, rng.fork('hide')) };
}
/** The same KB with the critic ratings spread to a grid of `step` (0.1 in the generated KB), so that a corrupted rating (Gaussian, sd 0.5, one decimal) often names no rating at all. */
function criticGrid(step: number): (kb: MovieKb) => MovieKb {
  return (kb) => {
    const j = SLOTS.indexOf('critic_rating');
    const lo = Math.min(...(kb.vocab[j] ?? []).map(Number));
    const vocab = kb.vocab.map((v, k) => (k === j ? v.map((x) => (lo + Math.round((Number(x) - lo) * 10) * step).toFixed(1)) : v));
    return new MovieKb(kb.titles, vocab, kb.cells).canonical();
  };
}
function row(label: string, opts: InfoBotEnvOptions, on: SplitName = split): void {
  const env = new InfoBotEnv({ split: on, ...opts });
  const c = agentContext(env);
  const r = RULES.map(([, access]) => mean(play(env, () => new RuleAgent(c, access))));
  const [soft, nokb, hard] = r as [ReturnType<typeof mean>, ReturnType<typeof mean>, ReturnType<typeof mean>];
  process.stdout.write(`| ${label} | ${fig(soft)} | ${fig(nokb)} | ${fig(hard)} | ${(soft.success - nokb.success).toFixed(3)} / ${(soft.reward - nokb.reward).toFixed(2)} |\n`);
}
const header = '| | Rule-Soft T / S / R | Rule-No-KB T / S / R | Rule-Hard T / S / R | Soft − No-KB: S / R |\n|---|---|---|---|---|\n';
process.stdout.write(`\n## 2. KB seeds (paper, Medium: Rule-Soft 3.94 / .76 / .83, No-KB 5.05 / .77 / .74, Hard 3.66 / .73 / .75; Soft − No-KB −0.01 / 0.09)\n\n${header}`);
for (const on of seedSplits) for (let s = 1; s <= 5; s++) row(`${on}, KB seed ${s}`, { kbSeed: s }, on);
process.stdout.write(`\n## 3. One change at a time (KB seed 1)\n\n${header}`);
const changes: readonly [string, InfoBotEnvOptions][] = [
  ['as shipped', {}],
  ['user: errProb 0 (no corruption)', { user: { errProb: 0 } }],
  ['user: subProb 0 (no substitution)', { user: { subProb: 0 } }],
  ['NLG temperature 0 (no word noise)', { temperature: 0 }],
  ['NLG dropRate 0.15 (0.04)', { user: { nlg: { dropRate: 0.15 } } }],
  ['NLG insertRate 0 (0.04)', { user: { nlg: { insertRate: 0 } } }],
  ['NLG insertRate 0.15', { user: { nlg: { insertRate: 0.15 } } }],
  ['KB: zipf 0.9 (0.6)', { kbs: kbsWith(1, { zipf: 0.9 }) }],
  ['KB: zipf 0', { kbs: kbsWith(1, { zipf: 0 }) }],
  ['KB: name pools 120 × 180 (200 × 300)', { kbs: kbsWith(1, { namePools: [120, 180] }) }],
  ['KB: name pools 60 × 100', { kbs: kbsWith(1, { namePools: [60, 100] }) }],
  ['KB: 30% repeated movies', { kbs: kbsWith(1, { duplicates: 0.3 }) }],
  ['KB: 15% missing in the full KB (0)', { kbs: kbsWith(1, { fullMissing: 0.15 }) }],
  ["KB: 30% hidden in the agent's KB (20%)", { kbs: kbsWith(1, {}, 0.3) }],
  ['KB: critic ratings 0.2 apart (0.1)', { kbs: kbsWith(1, {}, 0.2, criticGrid(0.2)) }],
  ['KB: critic ratings 0.3 apart', { kbs: kbsWith(1, {}, 0.2, criticGrid(0.3)) }],
];
for (const [label, opts] of changes) row(label, opts);

process.stdout.write(`\n## 4. What the rule agents had heard when they informed (KB seed 1)\n\n| | heard slots per dialog | every heard value right: dialogs, S | one wrong: dialogs, S | two or more wrong: dialogs, S | of the slots the user knows: heard, and heard wrong, per slot (${SLOTS.join(', ')}) |\n|---|---|---|---|---|---|\n`);
for (const [name, access] of RULES) {
  const agent = new RuleAgent(ctx, access);
  // A second tracker fed the same utterances and requests reads what the agent's own tracker read.
  const tracker = new HandCraftedTracker(ctx.kb, ctx.index, { update: agent.opts.update });
  const n = [0, 0, 0];
  const won = [0, 0, 0];
  let heard = 0;
  let dialogs = 0;
  const known = new Float64Array(M);
  const knownHeard = new Float64Array(M);
  const knownWrong = new Float64Array(M);
  for (const seed of evalSeeds)
    for (let i = 0; i < episodes; i++) {
      tracker.reset();
      let asked: number | null = null;
      const r = runInfoBotEpisode(baseEnv, agent, false, episodeSeed(seed, i), (u, a) => {
        tracker.update(u, asked);
        asked = a.act === 'request' ? SLOTS.indexOf(a.slot) : null;
      });
      let wrong = 0;
      for (const [j, v] of baseEnv.goal.known) {
        known[j] = (known[j] as number) + 1;
        if (!tracker.heard.has(j) || tracker.unknown.has(j)) continue;
        knownHeard[j] = (knownHeard[j] as number) + 1;
        if (argmax(tracker.beliefs.p[j] as Float64Array) !== v) knownWrong[j] = (knownWrong[j] as number) + 1;
      }
      for (const j of tracker.heard) {
        if (tracker.unknown.has(j)) continue;
        heard++;
        if (argmax(tracker.beliefs.p[j] as Float64Array) !== baseEnv.full.cell(baseEnv.goal.target, j)) wrong++;
      }
      const k = Math.min(wrong, 2);
      n[k] = (n[k] as number) + 1;
      if (r.success) won[k] = (won[k] as number) + 1;
      dialogs++;
    }
  const cell = (k: number): string => `${((n[k] as number) / dialogs).toFixed(3)}, ${((won[k] as number) / Math.max(1, n[k] as number)).toFixed(3)}`;
  const perSlot = SLOTS.map((_, j) => `${((knownHeard[j] as number) / (known[j] as number)).toFixed(2)}, ${((knownWrong[j] as number) / (knownHeard[j] as number)).toFixed(2)}`).join(' · ');
  process.stdout.write(`| ${name} | ${(heard / dialogs).toFixed(2)} | ${cell(0)} | ${cell(1)} | ${cell(2)} | ${perSlot} |\n`);
}
process.stdout.write('\n## 5. Rule-Soft, slot order: highest entropy first (official code) / lowest first\n\n| split | max-entropy T / S / R | min-entropy T / S / R |\n|---|---|---|\n');
for (const on of seedSplits) {
  const env = on === split ? baseEnv : new InfoBotEnv({ split: on });
  const c = agentContext(env);
  const [hi, lo] = (['max-entropy', 'min-entropy'] as const).map((order) => fig(mean(play(env, () => new RuleAgent(c, 'soft', { order })))));
  process.stdout.write(`| ${on} | ${hi} | ${lo} |\n`);
}
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`\n${((performance.now() - wall0) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU; load ${load()}\n`);
processDone();
