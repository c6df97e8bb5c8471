/** Worker-thread entry of `evaluateAgentOnWorkers`: plays one range of episodes (evaluate-workers.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import './index.js'; // registers the agents
import { InfoBotEnv } from './env.js';
import { createAgent, runEpisodes } from './evaluate.js';
import { splitKbs } from './generate.js';
import { readKbPair } from './movie-kb-tsv.js';
import type { EvalJob, EvalMessage } from './evaluate-workers.js';

const port = parentPort;
if (port === null) throw new Error('evaluate-worker.js runs as a worker thread');
const job = workerData as EvalJob;
try {
  const kbs = job.kb.kind === 'files' ? readKbPair(job.kb.full, job.kb.incomplete) : splitKbs(job.split, job.kb.kbSeed, job.kb.missing);
  const env = new InfoBotEnv({ split: job.split, kbs, ...(job.temperature !== undefined ? { temperature: job.temperature } : {}) });
  const created = createAgent(job.agent, env, job.policyDir);
  const results = runEpisodes(env, created, job.seed, job.start, job.end, (done) => {
    if (done % 100 === 0) port.postMessage({ type: 'progress', done } satisfies EvalMessage);
  });
  port.postMessage({ type: 'progress', done: results.length } satisfies EvalMessage);
  port.postMessage({ type: 'done', name: created.name, results } satisfies EvalMessage);
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  port.postMessage({ type: 'error', name: err.name, message: err.message.split('\n')[0] ?? '' } satisfies EvalMessage);
}
