/**
 * AirDialogue benchmark: contexts generated per second, self-play episodes per second (rules vs
 * rules), and the prior check over 100,000 generated contexts (max deviation from Tables 2/3).
 */
import { createRng } from '../src/core/rng.js';
import { AIRPORTS, ContextGenerator, IN_DOMAIN_PRIORS, maxDeviation, priorChecks, selfPlay, type AirContext } from '../src/testbeds/airdialogue/index.js';

function time<T>(fn: () => T): { value: T; seconds: number } {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { value, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}

const N_CONTEXTS = Number(process.env.AIR_BENCH_CONTEXTS ?? 100_000);
const N_EPISODES = Number(process.env.AIR_BENCH_EPISODES ?? 5_000);

const gen = new ContextGenerator();
const root = createRng(1);
const ctx = time(() => {
  const out: AirContext[] = [];
  for (let i = 0; i < N_CONTEXTS; i++) out.push(gen.generate(root.fork(`c${i}`)));
  return out;
});
process.stdout.write(`contexts: ${N_CONTEXTS} in ${ctx.seconds.toFixed(2)} s = ${Math.round(N_CONTEXTS / ctx.seconds)} contexts/s (30 flights each)\n`);

const checks = priorChecks(ctx.value, IN_DOMAIN_PRIORS, Object.keys(AIRPORTS));
const worst = checks.reduce((a, b) => (Math.abs(b.observed - b.expected) > Math.abs(a.observed - a.expected) ? b : a));
process.stdout.write(`priors: ${checks.length} probabilities, max |observed - expected| = ${(100 * maxDeviation(checks)).toFixed(3)} points (${worst.label}: ${(100 * worst.observed).toFixed(2)}% vs ${(100 * worst.expected).toFixed(2)}%)\n`);
for (const c of checks.filter((c) => !c.label.startsWith('departure_airport') && !c.label.startsWith('departure_month')))
  process.stdout.write(`  ${c.label.padEnd(32)} expected ${(100 * c.expected).toFixed(2).padStart(6)}%  observed ${(100 * c.observed).toFixed(2).padStart(6)}%\n`);

const sp = time(() => selfPlay({ n: N_EPISODES, seed: 1 }));
process.stdout.write(`self-play rules vs rules: ${N_EPISODES} episodes in ${sp.seconds.toFixed(2)} s = ${Math.round(N_EPISODES / sp.seconds)} episodes/s; total score ${sp.value.total.toFixed(5)} (exact ${sp.value.exact.total.toFixed(5)})\n`);
process.stdout.write(`ratio: one episode costs ${((sp.seconds / N_EPISODES) / (ctx.seconds / N_CONTEXTS)).toFixed(1)}x one context generation\n`);
