/**
 * dialogym's own agents live with their testbeds (`testbeds/<t>/agents.ts`, reached through each
 * testbed's descriptor and the `agents` registry); what remains here is what an LLM agent is told
 * of each testbed (llm.ts). The rule bot for a restaurant environment's tools is re-exported for
 * the callers that built it from here.
 */
export { rulesBotForTools } from '../testbeds/restaurant/agents.js';
