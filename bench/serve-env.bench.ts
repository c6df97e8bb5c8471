/**
 * People in the loop, scripted (issue 38's acceptance figures for `serve --env`): per testbed and
 * agent kind, N dialogs (default 20) where a scripted person reads only what the page shows — the
 * goal card, the hint, the dialog; as the agent the tables and the tool forms — and plays its side
 * through EnvSession (the session core of `serve --env` and the study server); beside it, the
 * simulated user's success with the same agent on the same seeds (`evaluate`).
 *
 *   npm run bench -- serve-env
 *   node dist/bench/serve-env.bench.js [dialogs]
 */
import '../src/index.js';
import { createRng } from '../src/core/rng.js';
import type { AgentTransport } from '../src/agents/agent.js';
import { openAgent } from '../src/evaluation/open.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { llmSystemMessage } from '../src/llm/prompts.js';
import { EnvSession, type SessionState } from '../src/serve/env-session.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';
import { infoBotUserParticipant } from '../src/testbeds/infobot/testing/person-user.js';
import { airUserParticipant } from '../src/testbeds/airdialogue/testing/person-user.js';
import { airAgentPerson, restaurantAgentPerson, type Person, type UserSide, userSidePerson } from '../test/serve-env-people.js';
import { startLlmTestServer } from '../test/llm-server.js';
import { cliPath } from '../test/shared-data.js';

await import('../src/testbeds/dstc6/index.js');
const n = Number(process.argv[2] ?? 20);

/** One dialog through EnvSession with `person` on its side; whether it succeeded. */
async function play(o: { envId: string; seed: number; role: 'user' | 'agent'; agent?: AgentTransport }, person: Person): Promise<boolean> {
  const s = await EnvSession.start({ ...o, agentTimeoutMs: 120_000, idleMs: 120_000, maxText: 500 });
  let state: SessionState = s.state();
  for (let turns = 0; state.waiting === 'person' && turns < 200; turns++) state = await s.send(state.wordless ? '' : person(state)); // a silent turn: passed, as the simulated user does
  await s.close();
  return state.outcome?.success === true;
}

const cmd = (agent: string): string => `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} agent --agent ${agent} --stdio`;
const llm = await startLlmTestServer();
const llmAgent = (): Promise<AgentTransport> => openAgent({ kind: 'llm', model: 'test-model', llmUrl: llm.url }, { llmSystem: (req) => llmSystemMessage(req) });
const rows: string[] = [];
const line = (s: string): void => {
  rows.push(s);
  process.stdout.write(`${s}\n`);
};
try {
  const userSides: Array<[string, string, UserSide]> = [
    ['restaurant-task5-v2', 'rules', restaurantUserParticipant],
    ['dstc6-task5-tst1-v2', 'rules', restaurantUserParticipant],
    ['infobot-medium-v1', 'rl-soft', infoBotUserParticipant],
    ['airdialogue-v2', 'rules', airUserParticipant],
  ];
  line(`person as the user, ${n} dialogs each (seeds 1…${n}): success of the scripted person | of the simulated user with the same agent`);
  for (const [envId, builtin, side] of userSides) {
    const kinds: Array<[string, () => Promise<AgentTransport>]> = [
      [`built-in ${builtin}`, () => openAgent({ kind: 'builtin', name: builtin })],
      ['--agent-cmd', () => openAgent({ kind: 'cmd', command: cmd(builtin) })],
      ...(envId.startsWith('infobot-') ? [] : ([['--agent-llm (test server)', llmAgent]] as Array<[string, () => Promise<AgentTransport>]>)),
    ];
    for (const [kind, open] of kinds) {
      const agent = await open();
      let won = 0;
      const t0 = Date.now();
      for (let i = 0; i < n; i++) if (await play({ envId, seed: 1 + i, role: 'user', agent }, userSidePerson(side, createRng(1000 + i)))) won++;
      const ms = Date.now() - t0;
      const sim = (await evaluate(envId, agent, { episodes: n, seed: 1, timeoutMs: 120_000 })).summary.success;
      await agent.close?.();
      line(`  ${envId.padEnd(20)} ${kind.padEnd(26)} person ${(won / n).toFixed(2)} (${won}/${n})  simulated user ${sim.toFixed(2)}  (${(ms / n).toFixed(0)} ms/dialog)`);
    }
  }
  line(`person as the agent, ${n} dialogs each, against the simulated user:`);
  const agentSides: Array<[string, () => Person]> = [
    ['restaurant-task5-v2', () => restaurantAgentPerson()],
    ['airdialogue-v2', () => airAgentPerson(createRng(7))],
  ];
  for (const [envId, make] of agentSides) {
    let won = 0;
    for (let i = 0; i < n; i++) if (await play({ envId, seed: 1 + i, role: 'agent' }, make())) won++;
    line(`  ${envId.padEnd(20)} success ${(won / n).toFixed(2)} (${won}/${n})`);
  }
} finally {
  await llm.close();
}
