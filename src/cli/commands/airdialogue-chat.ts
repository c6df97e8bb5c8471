/**
 * `dialogym airdialogue chat --model m.dgm --role customer|agent [--seed n] [--ood k] [--data d --kb k --line n]`:
 * talk to the learned AirDialogue models in the terminal (`testbeds/airdialogue/chat/repl.ts`). Registered
 * on the `airdialogue` verb from the CLI manifest beside `airdialogue.ts`.
 */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import type { AirExample } from '../../formats/airdialogue.js';
import { action, inputFlag, intFlag } from '../run.js';

interface ChatFlags {
  model: string;
  role: string;
  seed: number;
  ood: string;
  data?: string;
  kb?: string;
  line?: number;
  maxTurns: number;
}

/** Adds `chat` to the `airdialogue` verb (which `registerAirdialogue` has registered). */
export function registerAirdialogueChat(program: Command): void {
  const air = program.commands.find((c) => c.name() === 'airdialogue');
  if (!air) throw new Error('registerAirdialogueChat: the airdialogue verb is not registered');
  air
    .command('chat')
    .description('talk to the learned models of `airdialogue train` (reads stdin, so it can be piped): --role customer (you get a generated goal; the learned agent answers and acts, then the score) or --role agent (you get the flight table; the learned customer talks; end with /book 1004 <name>, /change, /cancel, /no_flight, /no_reservation)')
    .requiredOption('--model <file>', 'model file of `dialogym airdialogue train` (or `rl`)')
    .option('--role <side>', 'the side you play: customer or agent', 'customer')
    .option('--seed <n>', 'context seed (the context of self-play episode seed n); /new takes the next one', intFlag('--seed', 0, 0x7fffffff), 1)
    .option('--ood <k>', 'generated contexts: 0 in-domain, 1 other goal/reservation priors, 2 those plus unseen names and airports', '0')
    .option('--data <file>', 'play the contexts of a data file (JSON Lines) instead of generated ones; with --kb; only the lines played are read (default: none, generated contexts)', inputFlag('--data'))
    .option('--kb <file>', 'KB file aligned with --data (default: none)', inputFlag('--kb'))
    .option('--line <n>', 'line of --data to play first, found without parsing the lines before it; /new takes the next (default: 1)', intFlag('--line', 1))
    .option('--max-turns <n>', 'utterances after which the dialogue ends unscored', intFlag('--max-turns', 2, 10_000), 40)
    .action(
      action(async (o: ChatFlags) => {
        if (o.role !== 'customer' && o.role !== 'agent') throw new ConfigError(`--role: expected customer or agent, got '${o.role}'`);
        if (o.ood !== '0' && o.ood !== '1' && o.ood !== '2') throw new ConfigError(`--ood: expected 0, 1 or 2, got '${o.ood}'`);
        if ((o.data === undefined) !== (o.kb === undefined)) throw new ConfigError('--data and --kb go together');
        if (o.line !== undefined && o.data === undefined) throw new ConfigError('--line needs --data and --kb');
        const { loadAirModels } = await import('../../testbeds/airdialogue/learned/train.js');
        const { airExamples } = await import('../../formats/airdialogue.js');
        const { lineOffset } = await import('../../core/files.js');
        const { AirChat, contextOfExample } = await import('../../testbeds/airdialogue/chat/chat.js');
        const { runAirRepl } = await import('../../testbeds/airdialogue/chat/repl.js');
        const models = loadAirModels(o.model);
        // The contexts of a data file: line --line first, then the next ones, back to line 1 at the end. Only the lines
        // played are parsed; line n is found by scanning both files for newlines (the full KB file is 2.8 GB).
        let lines: Iterator<AirExample> | undefined;
        if (o.data && o.kb) {
          const first = o.line ?? 1;
          const at = lineOffset(o.data, first);
          if (at.lines === 0) throw new ConfigError(`${o.data}: no dialogue`);
          if (at.offset === undefined) throw new ConfigError(`--line: ${first} is past the end of ${o.data} (${at.lines} lines)`);
          lines = airExamples(o.data, o.kb, { fromLine: first });
        }
        const nextExample = (): AirExample => {
          let r = lines!.next();
          if (r.done === true) {
            lines = airExamples(o.data!, o.kb!);
            r = lines.next();
          }
          return r.value as AirExample;
        };
        const role = o.role;
        let k = 0;
        const next = () => {
          const i = k++;
          if (lines) {
            const ex = nextExample();
            return new AirChat(models, { role, seed: o.seed, context: contextOfExample(ex), origin: `${o.data} line ${ex.line}`, maxTurns: o.maxTurns });
          }
          return new AirChat(models, { role, seed: o.seed + i, ood: Number(o.ood) as 0 | 1 | 2, maxTurns: o.maxTurns });
        };
        await runAirRepl(next(), { input: process.stdin, output: process.stdout, next });
      }),
    );
}
