/** `dialogym export <transcripts.jsonl> --out <folder>`: played episodes as their testbed's dataset (bAbI text, DSTC6 JSON, AirDialogue JSON lines, KB-InfoBot dialog records). */
import type { Command } from 'commander';
import { count } from '../../core/text.js';
import { action, inputPath, out, outFolderFlag } from '../run.js';
import { SUMMARY } from './summaries.js';

interface ExportFlags {
  out: string;
  env?: string;
  successOnly?: boolean;
  json?: boolean;
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(SUMMARY.export)
    .argument('<transcripts>', 'an evaluate --transcripts file, or a study report\'s transcripts.jsonl')
    .requiredOption('--out <folder>', 'folder to write the dataset files into', outFolderFlag('--out'))
    .option('--env <id>', 'export the records of this environment only, when the file holds several (default: the file\'s one environment)')
    .option('--success-only', 'leave out the episodes that failed')
    .option('--json', 'print {"env","format","files","dialogs","skipped"} as JSON')
    .action(
      action(async (transcripts: string, o: ExportFlags) => {
        await (await import('../../testbeds/index.js')).loadTestbeds();
        const { exportDataset, MixedEnvsError } = await import('../../evaluation/export-dataset.js');
        const { FormatError } = await import('../../core/errors.js');
        let r;
        try {
          r = exportDataset(inputPath('<transcripts>', transcripts), o.out, { ...(o.env !== undefined ? { env: o.env } : {}), successOnly: o.successOnly === true });
        } catch (e) {
          if (e instanceof MixedEnvsError) throw new FormatError(e.file, e.line, `${e.reason} (--env ${e.envs[0]})`);
          throw e;
        }
        if (o.json) {
          out(JSON.stringify(r));
          return;
        }
        out(`${r.env}: ${count(r.dialogs, 'dialog')} as ${r.format}${r.skipped.length > 0 ? `, ${r.skipped.length} left out` : ''}`);
        for (const f of r.files) out(`  ${f}`);
        for (const s of r.skipped.slice(0, 20)) process.stderr.write(`left out ${s}\n`);
        if (r.skipped.length > 20) process.stderr.write(`… and ${r.skipped.length - 20} more left out\n`);
      }),
    );
}
