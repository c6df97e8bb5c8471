/**
 * People in the loop, scripted, through the browser (issue 38's acceptance figures for
 * `serve --env`): per testbed and agent kind, `dialogym serve --env` is started as a CLI process,
 * its page /env opened in headless chromium (playwright-core, Debian's chromium), and N dialogs
 * (default 20) played one after the other ("New dialog" between them, so the episodes' seeds are
 * 1…N) by a scripted person that reads only the page's DOM — the goal card, the hint, the agent's
 * last words; as the agent the view's tables and the tool forms — types in the page's input or
 * fills the forms, and reads the outcome off the end screen. Beside it, the simulated user's
 * success with the same agent on the same seeds (`evaluate`, as bench/serve-env.bench.ts); beside
 * a person playing the agent (restaurant task 5, DSTC6 task 5, AirDialogue, KB-InfoBot), the
 * built-in agent's where one is named (DSTC6: rules, KB-InfoBot: rule-soft).
 *
 *   npm run bench -- serve-env-browser
 *   npx tsc -p . && node dist/bench/serve-env-browser.bench.js [dialogs] [only]
 *
 * `only`: run just the rows whose configuration (first column) holds this text, e.g. `infobot`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import '../src/index.js';
import { createRng } from '../src/core/rng.js';
import type { AgentTransport } from '../src/agents/agent.js';
import { openAgent } from '../src/evaluation/open.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { llmSystemMessage } from '../src/llm/prompts.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';
import { infoBotUserParticipant } from '../src/testbeds/infobot/testing/person-user.js';
import { airUserParticipant } from '../src/testbeds/airdialogue/testing/person-user.js';
import { launchChromium, noChromium, pageWithErrors } from '../test/browser.js';
import { pageState, pageSettled, pageOutcome, pageSend, pageNewDialog } from '../test/env-page.js';
import { agentSidePerson, airAgentPerson, restaurantAgentPerson, type Person, type UserSide, userSidePerson } from '../test/serve-env-people.js';
import { infoBotAgentParticipant } from '../src/testbeds/infobot/testing/person-agent.js';
import { dstc6AgentParticipant } from '../src/testbeds/dstc6/testing/person-agent.js';
import { startLlmTestServer } from '../test/llm-server.js';
import { cliPath } from '../test/shared-data.js';

await import('../src/testbeds/dstc6/index.js');
const n = Number(process.argv[2] ?? 20);
if (!Number.isInteger(n) || n < 1) throw new Error(`dialogs: expected a positive integer, got '${process.argv[2]}'`);
const only = process.argv[3] ?? '';
if (noChromium) {
  process.stdout.write(`skipped: ${noChromium}\n`);
  process.exit(0);
}

/** `dialogym serve --env …` as a process; its URL once it listens. */
function startServe(args: readonly string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`serve did not start: ${stderr}`))), 120_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /on (http:\/\/[\d.:]+)\/env/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1] as string, stop: () => (child.kill('SIGTERM'), exited) });
      }
    });
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`serve exited (${code}): ${stderr}`))));
  });
}

/** N dialogs on the page at `url`, the person playing from what the page shows; how many succeeded. */
async function playAll(context: BrowserContext, url: string, person: (i: number) => Person): Promise<{ won: number; failed: number[]; errors: string[] }> {
  const { page, errors } = await pageWithErrors(context);
  page.setDefaultTimeout(180_000);
  let won = 0;
  const failed: number[] = [];
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${url}/env`);
    await pageSettled(page);
    for (let i = 0; i < n; i++) {
      if (i > 0) await pageNewDialog(page);
      if (await playOne(page, person(i))) won++;
      else failed.push(1 + i);
    }
  } finally {
    await page.close();
  }
  return { won, failed, errors };
}

async function playOne(page: Page, person: Person): Promise<boolean> {
  for (let turns = 0; turns < 200; turns++) {
    const s = await pageState(page);
    if (s.waiting === 'ended') break;
    await pageSend(page, s.wordless ? '' : person(s)); // a turn where the simulated user says nothing: passed, as it does
  }
  const o = await pageOutcome(page);
  return o.success;
}

const cmd = (agent: string): string => `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} agent --agent ${agent} --stdio`;
const llm = await startLlmTestServer();
/** A success rate, with the seeds that failed. */
const rate = (won: number, failed: readonly number[]): string => `${(won / n).toFixed(2)} (${won}/${n}${failed.length > 0 ? `; failed seed${failed.length > 1 ? 's' : ''} ${failed.join(', ')}` : ''})`;
const rows: string[] = [];
const line = (s: string): void => {
  rows.push(s);
  process.stdout.write(`${s}\n`);
};
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-env-browser-bench-'));
const context = await launchChromium(tmp);
try {
  line(`serve --env through headless chromium, ${n} dialogs each (seeds 1…${n})`);
  line('');
  line('| configuration | dialogs | success through the browser | simulated user, same agent and seeds | seconds (serve + the dialogs in the page) |');
  line('|---|---|---|---|---|');
  const userSides: Array<[string, string, UserSide]> = [
    ['restaurant-task5-v2', 'rules', restaurantUserParticipant],
    ['dstc6-task5-tst1-v2', 'rules', restaurantUserParticipant],
    ['infobot-medium-v1', 'rl-soft', infoBotUserParticipant],
    ['airdialogue-v2', 'rules', airUserParticipant],
  ];
  for (const [envId, builtin, side] of userSides) {
    const kinds: Array<[string, string[], () => Promise<AgentTransport>]> = [
      [`--agent ${builtin}`, ['--agent', builtin], () => openAgent({ kind: 'builtin', name: builtin })],
      [`--agent-cmd '… agent --agent ${builtin} --stdio'`, ['--agent-cmd', cmd(builtin)], () => openAgent({ kind: 'cmd', command: cmd(builtin) })],
    ];
    // The test server plays the rule bot (restaurant, DSTC6), the AirDialogue rule agent, KB-InfoBot's Rule-Soft.
    kinds.push(['--agent-llm test-model (test server)', ['--agent-llm', 'test-model', '--llm-url', llm.url], () => openAgent({ kind: 'llm', model: 'test-model', llmUrl: llm.url }, { llmSystem: (req) => llmSystemMessage(req) })]);
    for (const [kind, flags, open] of kinds) {
      if (!`${envId} user, ${kind}`.includes(only)) continue;
      const t0 = Date.now();
      const serve = await startServe(['--env', envId, '--seed', '1', '--timeout', '120000', ...flags]);
      let r: { won: number; failed: number[]; errors: string[] };
      try {
        r = await playAll(context, serve.url, (i) => userSidePerson(side, createRng(1000 + i)));
      } finally {
        await serve.stop();
      }
      const s = (Date.now() - t0) / 1000;
      const agent = await open();
      const sim = await evaluate(envId, agent, { episodes: n, seed: 1, timeoutMs: 120_000 });
      await agent.close?.();
      const simFailed = sim.records.filter((e) => !e.success).map((e) => e.seed);
      line(`| ${envId} user, ${kind} | ${n} | ${rate(r.won, r.failed)} | ${rate(n - simFailed.length, simFailed)} | ${s.toFixed(0)} |${r.errors.length > 0 ? ` console errors: ${r.errors.join('; ').slice(0, 200)}` : ''}`);
    }
  }
  const agentSides: Array<[string, (i: number) => Person, string?]> = [
    ['restaurant-task5-v2', () => restaurantAgentPerson()],
    ['dstc6-task5-tst1-v2', () => agentSidePerson(dstc6AgentParticipant()), 'rules'],
    ['airdialogue-v2', () => airAgentPerson(createRng(7))],
    ['infobot-medium-v1', () => agentSidePerson(infoBotAgentParticipant()), 'rule-soft'],
  ];
  for (const [envId, make, beside] of agentSides) {
    if (!`${envId} agent (tool forms)`.includes(only)) continue;
    const t0 = Date.now();
    const serve = await startServe(['--env', envId, '--as', 'agent', '--seed', '1']);
    let r: { won: number; failed: number[]; errors: string[] };
    try {
      r = await playAll(context, serve.url, make);
    } finally {
      await serve.stop();
    }
    const s = (Date.now() - t0) / 1000;
    // Beside a person playing the agent: the built-in agent `beside` with the simulated user on the same seeds.
    let sim = '—';
    if (beside !== undefined) {
      const e = await evaluate(envId, await openAgent({ kind: 'builtin', name: beside }), { episodes: n, seed: 1 });
      const simFailed = e.records.filter((x) => !x.success).map((x) => x.seed);
      sim = `${beside}: ${rate(n - simFailed.length, simFailed)}`;
    }
    line(`| ${envId} agent (tool forms) vs the simulated user | ${n} | ${rate(r.won, r.failed)} | ${sim} | ${s.toFixed(0)} |${r.errors.length > 0 ? ` console errors: ${r.errors.join('; ').slice(0, 200)}` : ''}`);
  }
} finally {
  await context.close();
  await llm.close();
  rmSync(tmp, { recursive: true, force: true });
}
