/** Memoisation with a bound, for pure functions of a key that a client may choose (a KB's seed). */

/**
 * `fn` with its results kept for the `limit` keys used last: a pure function whose key comes from
 * outside (an env server's client picks any `kbSeed`) cannot grow the cache without end.
 *
 * @example
 * ```ts
 * import { memoLast } from './memo.js';
 * const square = memoLast(2, (n: number) => n * n);
 * square(3); // computed
 * square(3); // from the cache
 * ```
 */
export function memoLast<K, V>(limit: number, fn: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (cache.has(key)) {
      const v = cache.get(key) as V;
      cache.delete(key); // most recently used last
      cache.set(key, v);
      return v;
    }
    const v = fn(key);
    cache.set(key, v);
    if (cache.size > limit) cache.delete(cache.keys().next().value as K);
    return v;
  };
}
