#!/usr/bin/env node
/** dialogym command-line interface: one file per verb in ./commands. */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { fail } from './run.js';
import { registerCommands } from './commands/index.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

export function buildProgram(): Command {
  const program = new Command('dialogym')
    .description('Goal-oriented dialog toolkit: bAbI dialog tasks, DSTC6, KB-InfoBot, AirDialogue')
    .version(pkg.version)
    .option('--debug', 'print stack traces on errors')
    .exitOverride();
  registerCommands(program);
  return program;
}

async function main(): Promise<void> {
  const program = buildProgram();
  try {
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
