/**
 * The agent side of the stdio transport: reads one protocol request per line, writes one reply
 * per line (`{"action": …, "turn": n}` echoing the request's turn, or `{"error": "…"}` when the
 * request or the agent failed — the evaluator then counts the episode as failed with reason
 * `no action`).
 */
import { createInterface } from 'node:readline';
import { LlmError } from '../llm/client/client.js';
import type { Agent, AgentConnection } from './agent.js';
import type { AgentRequest } from './protocol.js';

/**
 * Answers requests from `input` on `output` until `input` ends: with an agent's action, or with
 * the whole reply of a connection (the LLM agent's `{action, turn, usage}`). A fatal LLM error (a
 * wrong key, URL or model; the failure budget spent) ends it with that error.
 */
export async function runStdioAgent(agent: Agent | AgentConnection, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<void> {
  const rl = createInterface({ input, crlfDelay: Infinity });
  // Replies are batched per chunk of input lines: one write per tick instead of one per line.
  let buf = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (buf !== '') output.write(buf);
    buf = '';
  };
  for await (const line of rl) {
    if (line.trim() === '') continue;
    let reply: string;
    try {
      const req = JSON.parse(line) as AgentRequest;
      if (typeof req !== 'object' || req === null || typeof req.env !== 'string') throw new Error('not an agent request: no "env" string (docs/agent-protocol.md)');
      reply = JSON.stringify('send' in agent ? await agent.send(req, 0) : { action: await agent.act(req), turn: req.turn });
    } catch (e) {
      if (e instanceof LlmError && e.fatal) {
        flush();
        throw e;
      }
      reply = JSON.stringify({ error: e instanceof Error ? e.message : String(e) });
    }
    buf += reply + '\n';
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }
  flush();
}
