#!/usr/bin/env node
/**
 * dialogym command-line interface: one file per verb in ./commands, listed in the light manifest
 * ./commands/index.ts. Only the verb being run is imported, so the CLI starts in about the time of
 * Node itself (bench/cli-startup.bench.ts).
 */
import { CommanderError } from 'commander';
import { fail } from './run.js';
import { buildProgram } from './program.js';

async function main(): Promise<void> {
  try {
    const program = await buildProgram(process.argv.slice(2));
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander already printed its one-line message (or help/version).
      process.exit(e.exitCode === 0 ? 0 : 2);
    }
    fail(e);
  }
}

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
});

void main();
