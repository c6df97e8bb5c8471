/**
 * Every registered environment, built by id, checked against the Env contract, and one episode
 * of KB-InfoBot played with random actions (`npm run build && node dist/examples/envs.js`).
 */
import { checkEnv, envs, make } from 'dialogym';

for (const id of envs) {
  const steps = checkEnv(make(id), { episodes: 2 });
  console.log(`${id}: ok (${steps} steps checked)`);
}
