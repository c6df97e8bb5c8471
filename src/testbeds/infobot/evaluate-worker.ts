/** Worker-thread task of `evaluateAgentOnWorkers`: plays one range of episodes (evaluate-workers.ts). */
import './index.js'; // registers the agents
import { poolTask } from '../../core/pool-worker.js';
import { InfoBotEnv } from './env.js';
import { createInfoBotAgent, runEpisodes } from './evaluate.js';
import { splitKbs } from './generate.js';
import { readKbPair } from './movie-kb-tsv.js';
import type { EvalJob, EvalPart } from './evaluate-workers.js';

export default poolTask<EvalJob, EvalPart, number>((job, post) => {
  const kbs = job.kb.kind === 'files' ? readKbPair(job.kb.full, job.kb.incomplete) : splitKbs(job.split, job.kb.kbSeed, job.kb.missing);
  const env = new InfoBotEnv({ split: job.split, kbs, ...(job.temperature !== undefined ? { temperature: job.temperature } : {}) });
  const created = createInfoBotAgent(job.agent, env, job.policyDir);
  const results = runEpisodes(
    env,
    created,
    job.seed,
    job.start,
    job.end,
    (done) => {
      if (done % 100 === 0) post(done);
    },
    job.step ?? 1,
  );
  post(results.length);
  return { name: created.name, results };
});
