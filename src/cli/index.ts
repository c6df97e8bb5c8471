#!/usr/bin/env node
/**
 * dialogym command-line interface: one file per verb in ./commands, listed in the light manifest
 * ./commands/index.ts. Only the verb being run is imported, so the CLI starts in about the time of
 * Node itself (bench/cli-startup.bench.ts). A plain command line of a verb that can run without
 * commander (the manifest's `plain`: `dstc6 score --result … --answers …`) loads neither commander
 * nor the program; every other command line (help, errors included) goes through commander.
 */
import { VERBS, verbName } from './commands/index.js';
import { processDone } from '../core/exit.js';
import { exitOnEpipe, fail } from './plain.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const plain = VERBS.find((v) => verbName(v) === args[0])?.plain;
  try {
    if (plain !== undefined && (await plain(args.slice(1)))) return processDone();
    exitOnEpipe(process.stdout);
    const { buildProgram } = await import('./program.js');
    const program = await buildProgram(args);
    await program.parseAsync(process.argv);
    processDone();
  } catch (e) {
    const { CommanderError } = await import('commander');
    if (e instanceof CommanderError) {
      // commander already printed its one-line message (or help/version).
      processDone();
      process.exit(e.exitCode === 0 ? 0 : 2);
    }
    fail(e);
  }
}

void main();
