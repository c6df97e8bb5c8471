/**
 * Tokenisation for the movie domain (belief tracker, value corruption): lower case, words and numbers
 * (keeping inner `.`, `-` and `'`, so `7.2`, `pg-13` and `o'brien` stay whole), English stop words
 * dropped.
 */

const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why will with you your yours ' +
    "yourself yourselves don't didn't can't i'm it's i'd i'll that's isn't doesn't won't"
  ).split(' '),
);

const TOKEN = /[a-z0-9]+(?:[.'-][a-z0-9]+)*/g;

/** All word tokens, lower-cased, stop words kept.
 *
 * @example
 * ```ts
 * import { wordTokens } from 'dialogym/infobot';
 * wordTokens("It's rated PG-13, 7.2 stars"); // ["it's", 'rated', 'pg-13', '7.2', 'stars']
 * ```
 */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Content tokens: lower-cased word tokens without stop words.
 *
 * @example
 * ```ts
 * import { contentTokens } from 'dialogym/infobot';
 * contentTokens('I am looking for a movie with Tom Hanks'); // ['looking', 'movie', 'tom', 'hanks']
 * ```
 */
export function contentTokens(text: string): string[] {
  return wordTokens(text).filter((t) => !STOP_WORDS.has(t));
}

/**
 * Whether a lower-case token is one of the English stop words `contentTokens` drops.
 *
 * @example
 * ```ts
 * import { isStopWord } from 'dialogym/infobot';
 * isStopWord('the');   // true
 * isStopWord('drama'); // false
 * ```
 */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
