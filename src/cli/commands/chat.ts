/** `dialogym chat --model <name|model.dgm> [--kb <kb.sqlite>]`: talk to a model in the terminal. */
import type { Command } from 'commander';
import { runRepl } from '../../testbeds/restaurant/chat/repl.js';
import { Session } from '../../testbeds/restaurant/chat/session.js';
import { setupBot } from '../../testbeds/restaurant/chat/setup.js';
import { checkModelName, isModelFile, loadModels } from '../../rankers/registry.js';
import { chatReads, checkAllowCheckpoint, checkContextFlags, modelArg, modelHelp } from '../model-flags.js';
import { DSTC2_MODELS } from '../../testbeds/restaurant/models.js';
import { action, alias, inputFlag, intFlag } from '../run.js';
import { SUMMARY } from './summaries.js';

export function registerChat(program: Command): void {
  program
    .command('chat')
    .summary(SUMMARY.chat)
    .description(`${SUMMARY.chat}\n${modelHelp(DSTC2_MODELS)}`)
    .requiredOption('--model <model>', 'a model (see Models above) or a model file written by `dialogym train` (*.dgm)')
    .option('--kb <kb>', 'SQLite KB from `dialogym kb import`, or a bAbI/DSTC6 KB text file (default: a generated bAbI KB)', inputFlag('--kb'))
    .option('--candidates <file>', 'candidates file, for ranking models (memn2n, tfidf, …; an hcn model writes its answers; default for a model file: the candidates it stores)', inputFlag('--candidates'))
    .option('--kb-seed <n>', 'seed of the generated KB when --kb is not given', intFlag('--kb-seed', 0), 1)
    .addOption(alias('--seed <n>', 'kbSeed', intFlag('--seed', 0)))
    .option('--max-results <n>', 'show at most n restaurants per api_call (default: all)', intFlag('--max-results', 1))
    .option('--allow-checkpoint', 'accept the checkpoint of an unfinished `train` run as --model')
    .action(
      action(async (opts: { model: string; kb?: string; candidates?: string; kbSeed: number; maxResults?: number; allowCheckpoint?: boolean }) => {
        checkModelName(opts.model);
        const isFile = isModelFile(opts.model);
        checkAllowCheckpoint(opts.model, isFile, opts.allowCheckpoint);
        const m = modelArg(opts.model, isFile); // the one read of a model file: setupBot gets its content
        checkContextFlags(m, opts, ['candidates'], chatReads(m));
        await loadModels(); // the code of the declared models (rules, hcn)
        const bot = setupBot({ model: opts.model, seed: opts.kbSeed, ...(opts.kb ? { kb: opts.kb } : {}), ...(opts.candidates ? { candidates: opts.candidates } : {}), ...(opts.allowCheckpoint ? { allowCheckpoint: true } : {}) }, m.content);
        try {
          const session = new Session('repl', bot.model, bot.kb, opts.maxResults !== undefined ? { maxResults: opts.maxResults } : {});
          await runRepl(session, { input: process.stdin, output: process.stdout, banner: `model ${bot.model.name}; KB ${bot.kbSource}` });
        } finally {
          bot.close();
        }
      }),
    );
}
