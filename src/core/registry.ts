/** Named factories, so the CLI, the server and the benchmarks share one lookup. */
import { ConfigError } from './errors.js';

/**
 * One entry of a {@link Registry}: its name, one-line description and factory, as returned by
 * `registry.list()`.
 *
 * @example
 * ```ts
 * import { envs, type EnvFactory, type RegistryEntry } from 'dialogym';
 * const entries: RegistryEntry<EnvFactory>[] = envs.list();
 * for (const e of entries) console.log(`${e.name}  ${e.description}`);
 * ```
 */
export interface RegistryEntry<F> {
  /** The name it is looked up by. */
  readonly name: string;
  /** One line, shown by the CLI's listings. */
  readonly description: string;
  /** What `registry.get(name)` returns. */
  readonly factory: F;
}

/**
 * A name → factory map with a one-line description per entry; iterating it yields the names
 * (sorted), so `[...envs]` lists the environment ids.
 *
 * @example
 * ```ts
 * import { Registry } from 'dialogym';
 * const greeters = new Registry<() => string>('greeter');
 * greeters.register('hi', 'says hi', () => 'hi');
 * greeters.get('hi')(); // 'hi'
 * [...greeters];        // ['hi']
 * ```
 */
export class Registry<F> implements Iterable<string> {
  private readonly entries = new Map<string, RegistryEntry<F>>();
  constructor(readonly kind: string) {}

  register(name: string, description: string, factory: F): void {
    if (this.entries.has(name)) throw new ConfigError(`${this.kind} '${name}' registered twice`);
    this.entries.set(name, { name, description, factory });
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  get(name: string): F {
    const e = this.entries.get(name);
    if (!e) throw new ConfigError(`unknown ${this.kind} '${name}' (known: ${this.names().join(', ') || 'none'})`);
    return e.factory;
  }

  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  list(): RegistryEntry<F>[] {
    return this.names().map((n) => this.entries.get(n) as RegistryEntry<F>);
  }

  [Symbol.iterator](): Iterator<string> {
    return this.names()[Symbol.iterator]();
  }
}
