/**
 * The one training recipe per learned KB-InfoBot agent, as `infobot train` flags (issue 40): rl-*
 * the defaults, e2e-soft the noise-robust recipe of docs/infobot.md. Used by the infobot benches.
 */
export const RECIPES: Readonly<Record<string, readonly string[]>> = {
  'rl-nokb': [],
  'rl-hard': [],
  'rl-soft': [],
  'e2e-soft': ['--residual', '--reask-lost', '--temperatures', '1,3', '--validation-temperature', '3', '--validation-episodes', '1000'],
};
