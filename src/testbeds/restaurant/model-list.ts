/**
 * The restaurant testbed's models as its descriptor declares them (light: names, descriptions,
 * what each does; their code is models.ts, loaded by `loadModels`), and the step its own runs and
 * chat take before they resolve a model by name.
 */
import type { ModelList } from '../../rankers/model-entry.js';

/** The restaurant's models (the generic rankers are the registry's), declared light: their code is models.ts. */
export const RESTAURANT_MODEL_LIST: ModelList = {
  owner: 'the restaurant testbed',
  module: new URL('./models.js', import.meta.url).href,
  export: 'RESTAURANT_MODELS',
  models: [
    { name: 'rules', description: 'tasks 1-5, DSTC6: rule-based bot (state tracking, fixed policy); the 100% reference', can: ['create'] },
    { name: 'rules-dstc2', description: "task 6: the paper's rule baseline (learns its wording from --train; + --kb); compare with the paper (tst 52.55%)", can: ['create'] },
    { name: 'hcn', description: 'Hybrid Code Network (needs --kb); task 6: our best, with --rules-advice --advice-gate 0.98 (tst 53.1-53.5%)', can: ['train', 'load'] },
  ],
};

/**
 * The restaurant's models declared (as the list of testbeds declares them: the same list, once)
 * and their code loaded: what the restaurant's own runs and chat do before they resolve a model by
 * name, so that they work from `dialogym/restaurant` without `import 'dialogym'` too.
 */
export async function restaurantModelsReady(): Promise<void> {
  const { declareModels, loadModels } = await import('../../rankers/registry.js');
  declareModels(RESTAURANT_MODEL_LIST);
  await loadModels();
}
