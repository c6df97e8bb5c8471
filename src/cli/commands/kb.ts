/** `dialogym kb import <kb-file> --out <kb.sqlite>` and `dialogym kb query <kb.sqlite> "api_call …"`. */
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { answerApiCall } from '../../testbeds/restaurant/kb-dialects.js';
import { importKbFile, SqliteKbStore } from '../../testbeds/restaurant/kb-sqlite.js';
import { action, alias, inputFlag, intFlag, out, outFileFlag } from '../run.js';
import { SUMMARY } from './summaries.js';

function orderFlag(v: string): 'rating' | 'kb' {
  if (v !== 'rating' && v !== 'kb') throw new ConfigError(`--order: expected 'rating' or 'kb', got '${v}'`);
  return v;
}

export function registerKb(program: Command): void {
  const kb = program.command('kb').description(SUMMARY.kb);
  kb.command('import')
    .description('bAbI (tasks 1-5) or DSTC6 KB file → SQLite KB (restaurants indexed on the api_call slots)')
    .argument('<kb-file>', 'e.g. dialog-babi-kb-all.txt (babi:kb) or DSTC6 extendedkb1.txt (dstc6:kb1)', inputFlag('kb import'))
    .requiredOption('--out <kb.sqlite>', 'SQLite file to write (replaced atomically)', outFileFlag('--out'))
    .option('--json', 'print {"out","restaurants","facts","dialect"} as JSON')
    .action(
      action((kbFile: string, opts: { out: string; json?: boolean }) => {
        const s = importKbFile(kbFile, opts.out);
        if (opts.json) out(JSON.stringify({ out: opts.out, restaurants: s.restaurants, facts: s.facts, dialect: s.dialect }));
        else out(`${opts.out}: ${s.restaurants} restaurants (${s.facts} facts, ${s.dialect} KB)`);
      }),
    );
  kb.command('query')
    .description('run an api_call on a SQLite KB; prints the KB-result lines as the datasets write them')
    .argument('<kb.sqlite>', 'a KB written by `dialogym kb import`')
    .argument('<api_call>', 'e.g. "api_call french paris six moderate"')
    .option('--order <order>', "result order: 'rating' (decreasing) or 'kb' (file order)", orderFlag, 'rating' as const)
    .option('--max-results <n>', 'at most n restaurants (default: all that match)', intFlag('--max-results', 1))
    .addOption(alias('--max <n>', 'maxResults', intFlag('--max', 1)))
    .option('--json', 'print {"call","restaurants":[{name, cuisine, …}],"lines"} as JSON')
    .action(
      action((file: string, call: string, opts: { order: 'rating' | 'kb'; maxResults?: number; json?: boolean }) => {
        const store = SqliteKbStore.open(file);
        try {
          const ans = answerApiCall(store, store.dialect, call, { order: opts.order, ...(opts.maxResults !== undefined ? { maxResults: opts.maxResults } : {}) });
          if (!ans.ok) throw new ConfigError(ans.reason);
          if (opts.json) out(JSON.stringify({ call: ans.call, restaurants: ans.restaurants, lines: ans.lines }));
          else for (const l of ans.lines) out(l);
        } finally {
          store.close();
        }
      }),
    );
}
