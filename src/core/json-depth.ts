/** The nesting depth of parsed JSON values, measured without recursion (hostile input cannot overflow the stack). */

/**
 * Whether `v` nests arrays/objects deeper than `max` levels (iterative: no recursion on hostile input).
 *
 * @example
 * ```ts
 * depthOver({ a: [1] }, 2); // false
 * depthOver({ a: [[1]] }, 2); // true
 * ```
 */
export function depthOver(v: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop() as [unknown, number];
    if (x === null || typeof x !== 'object') continue;
    if (d >= max) return true;
    for (const y of Array.isArray(x) ? x : Object.values(x)) if (y !== null && typeof y === 'object') stack.push([y, d + 1]);
  }
  return false;
}
