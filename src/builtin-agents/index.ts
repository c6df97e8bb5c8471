/**
 * dialogym's own agents, registered in the `agents` registry (agents/registry.ts) by family: the
 * restaurant envs (`restaurant-*`, `dstc6-*`), AirDialogue, KB-InfoBot. They import their
 * testbeds, so they live here, above them; `import 'dialogym'` registers them.
 */
import { agents } from '../agents/registry.js';
import { restaurantAgents } from './restaurant.js';
import { airdialogueAgents } from './airdialogue.js';
import { infobotFamily } from './infobot.js';

agents.register('restaurant', 'restaurant-* and dstc6-*: rules, or a response model / model file', restaurantAgents);
agents.register('airdialogue', 'airdialogue-*: the AirDialogue agent policies', airdialogueAgents);
agents.register('infobot', 'infobot-*: the KB-InfoBot agents or a policy file', infobotFamily);

export { rulesBotForTools } from './restaurant.js';
