/**
 * How a KB file reaches the environments that read one (`evaluateRun`'s `kb`, `evaluate --kb`):
 * each testbed's `kb` (the option that takes the KB, the reader of the file), declared by the list
 * of testbeds as it declares their environments.
 */
/**
 * How a KB file reaches an environment (`evaluateRun`'s `kb`): the environment option that takes
 * the KB and the reader of the file (a testbed's `kb`, declared by the list of testbeds).
 *
 * @example
 * ```ts
 * import type { KbFile } from 'dialogym';
 * const kb: KbFile = { option: 'restaurants', read: async (file) => [] };
 * ```
 */
export interface KbFile {
  readonly option: string;
  read(file: string): Promise<unknown>;
}

const kbs = new Map<string, KbFile>();
const kbOwners: string[] = [];

/**
 * Declares that the environments `envIds` of testbed `testbed` read a KB file as `kb` says.
 *
 * @example
 * ```ts
 * import { declareKb } from 'dialogym';
 * declareKb('toy', ['toy-v0'], { option: 'items', read: async (file) => [file] });
 * ```
 */
export function declareKb(testbed: string, envIds: readonly string[], kb: KbFile): void {
  if (!kbOwners.includes(testbed)) kbOwners.push(testbed);
  for (const id of envIds) kbs.set(id, kb);
}

/**
 * How environment `envId` reads a KB file, or undefined when it reads none.
 *
 * @example
 * ```ts
 * import { kbOf } from 'dialogym';
 * kbOf('restaurant-task5-v2')?.option; // 'restaurants'
 * ```
 */
export function kbOf(envId: string): KbFile | undefined {
  return kbs.get(envId);
}

/**
 * The testbeds whose environments read a KB file, in the order they were declared.
 *
 * @example
 * ```ts
 * import { kbTestbeds } from 'dialogym';
 * kbTestbeds(); // ['restaurant', 'dstc6']
 * ```
 */
export function kbTestbeds(): readonly string[] {
  return kbOwners;
}
