/** KB-InfoBot movie domain: importing this module registers the `infobot-*-v1` environments and the agents. */
export * from './slots.js';
export * from './text.js';
export * from './kb.js';
export * from './tsv.js';
export * from './generate.js';
export * from './acts.js';
export * from './nlg.js';
export * from './user.js';
export * from './soft-kb.js';
export * from './hard-kb.js';
export * from './tracker.js';
export * from './agent.js';
export * from './rule-agents.js';
export * from './max-agent.js';
export * from './trained-agents.js';
export * from './env.js';
export * from './evaluate.js';
