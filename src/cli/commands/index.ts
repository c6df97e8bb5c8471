/** Every CLI verb, registered in help order. */
import type { Command } from 'commander';
import { registerGenerate } from './generate.js';
import { registerStats } from './stats.js';
import { registerWalk } from './walk.js';
import { registerEval } from './eval.js';
import { registerTrain } from './train.js';
import { registerCompare } from './compare.js';
import { registerDstc6 } from './dstc6.js';
import { registerAirdialogue } from './airdialogue.js';
import { registerDemo } from './demo.js';
import { registerKb } from './kb.js';
import { registerChat } from './chat.js';
import { registerServe } from './serve.js';
import { registerInfobot } from './infobot.js';
import { registerBenchmark } from './benchmark.js';
import { registerEvaluate } from './evaluate.js';
import { registerAgent } from './agent.js';
import { registerEnvServer } from './env-server.js';

export function registerCommands(program: Command): void {
  registerGenerate(program);
  registerStats(program);
  registerWalk(program);
  registerTrain(program);
  registerEval(program);
  registerCompare(program);
  registerBenchmark(program);
  registerDstc6(program);
  registerAirdialogue(program);
  registerInfobot(program);
  registerKb(program);
  registerChat(program);
  registerServe(program);
  registerDemo(program);
  registerEvaluate(program);
  registerAgent(program);
  registerEnvServer(program);
}
