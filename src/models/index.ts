/** Registers every built-in model; import this module before looking a model up. */
export { models } from './ranker.js';
