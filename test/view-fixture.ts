/**
 * A folder like one that runs write, for the `dialogym view` tests: two `evaluate --transcripts` runs
 * of 1,000 episodes of restaurant task 5 (the rule bot, and the rule bot that misbehaves on some
 * episodes, so there are failures of several reasons to filter), a report in Markdown with its SVG
 * chart beside it, and a learning curve alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import '../src/index.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { createAgent } from '../src/agents/registry.js';
import type { AgentRequest } from '../src/agents/protocol.js';

/** Failures the misbehaving agent causes: a wrong api_call on tasks ≡ 1 (mod 7), silence-until-cut on ≡ 3 (mod 11). */
export async function writeViewFolder(dir: string, episodes = 1000): Promise<{ good: string; bad: string }> {
  mkdirSync(join(dir, 'runs'), { recursive: true });
  mkdirSync(join(dir, 'bench'), { recursive: true });
  const rules = createAgent('rules');
  const good = await evaluate('restaurant-task5-v1', rules, { episodes, seed: 1 });
  const flaky = {
    name: 'flaky',
    async act(req: AgentRequest): Promise<unknown> {
      const a = (await rules.act(req)) as unknown;
      // A wrong price in the final api_call (text or tool call).
      if (req.episode % 7 === 1 && typeof a === 'string' && a.startsWith('api_call ')) return a.replace(/ (cheap|moderate|expensive)$/, (_m, p: string) => (p === 'cheap' ? ' expensive' : ' cheap'));
      if (req.episode % 7 === 1 && typeof a === 'object' && a !== null && 'tool' in a) {
        const args = (a as unknown as { arguments: Record<string, string> }).arguments;
        return { tool: 'api_call', arguments: { ...args, price: args['price'] === 'cheap' ? 'expensive' : 'cheap' } };
      }
      if (req.episode % 11 === 3 && req.turn >= 2) return 'i like turtles';
      return a;
    },
  };
  const bad = await evaluate('restaurant-task5-v1', flaky as never, { episodes, seed: 1 });
  const lines = (rs: readonly unknown[]): string => rs.map((r) => JSON.stringify(r)).join('\n') + '\n';
  writeFileSync(join(dir, 'runs', 'rules.jsonl'), lines(good.records));
  writeFileSync(join(dir, 'runs', 'flaky.jsonl'), lines(bad.records));
  writeFileSync(join(dir, 'runs', 'notes.jsonl'), '{"hello": "not a transcript"}\n');
  writeFileSync(
    join(dir, 'bench', 'benchmark.md'),
    [
      '# Table 2: per-response accuracy (per-dialog in parentheses)',
      '',
      '| test | tfidf | memn2n+match | paper memn2n+match |',
      '|---|---:|---:|---:|',
      '| T1 | 22.4 (0.0) | 100.0 (100.0) | 100 (100) |',
      '| T5-OOV | 16.5 (0.0) | 80.1 (0.0) | 77.7 (0) |',
      '',
      'Cells **within 5 points** of the paper: `2 of 2`.',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'bench', 'benchmark.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="240" viewBox="0 0 640 240"><rect x="20" y="20" width="200" height="200" fill="#0072B2"/><text x="240" y="120">T1</text></svg>\n');
  writeFileSync(join(dir, 'bench', 'curve.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="160"><polyline points="0,150 100,80 300,20" stroke="#D55E00" fill="none"/></svg>\n');
  return { good: join(dir, 'runs', 'rules.jsonl'), bad: join(dir, 'runs', 'flaky.jsonl') };
}
