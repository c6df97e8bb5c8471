/**
 * A scripted agent of the restaurant envs that waits when it does not understand (as LLM agents
 * do: "whenever you're ready"), for the tests of a person on a wordless turn
 * (test/serve-env-wordless.test.ts, test/serve-env-browser.test.ts): the built-in rules agent, except that it waits when the
 * user's last words are "hmm", or the silence (`<SILENCE>`) after its own wait. Against it the
 * -v2 simulated user stays silent, turn after turn, until someone speaks.
 */
import type { Turn } from '../src/core/dialog.js';
import type { AgentTransport } from '../src/agents/agent.js';

/** What the agent says when it waits. */
export const WAIT = "whenever you're ready";

/** `rules` (the built-in rules agent's transport) that waits as the module description says. */
export function waitingAgent(rules: AgentTransport): AgentTransport {
  return {
    name: 'waiting',
    connect: (lane) => {
      const c = rules.connect(lane);
      return {
        send: async (req, timeoutMs) => {
          const history = ((req.observation as { history?: Turn[] }).history ?? []).filter((t) => t.speaker !== 'kb');
          const last = history[history.length - 1];
          const before = history[history.length - 2];
          if (last?.speaker === 'user' && (last.text === 'hmm' || (last.text === '<SILENCE>' && before?.text === WAIT))) return { action: WAIT };
          return c.send(req, timeoutMs);
        },
        close: () => c.close(),
      };
    },
  };
}
