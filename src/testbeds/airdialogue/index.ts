/** AirDialogue domain: importing this module registers `airdialogue-v1` and the rule policies. */
export * from './facts.js';
export * from './logic.js';
export * from './scorer.js';
export * from './context.js';
export * from './language.js';
export * from './policies.js';
export * from './env.js';
export * from './prior-stats.js';
export { AIR_TOOLS } from './tools.js';
