/** A small learned AirDialogue model pair for the chat tests, trained in a few seconds on synthesized dialogues. */
import { synthesizeSplits, toLearned } from '../src/testbeds/airdialogue/learned/data.js';
import { Vocab } from '../src/testbeds/airdialogue/learned/tokens.js';
import { createAirModels, saveAirModels, trainAirModels, type AirModels } from '../src/testbeds/airdialogue/learned/train.js';

/** Trains the tiny models (same settings → same weights). */
export function tinyAirModels(): AirModels {
  const s = synthesizeSplits({ train: 32, dev: 6, test: 0, seed: 3 });
  return trainAirModels(s.train, s.dev, { epochs: 3, dim: 8, hidden: 16, seed: 1 }).models;
}

/** Trains the tiny models and writes them to `file`. */
export function tinyAirModelFile(file: string): string {
  saveAirModels(file, tinyAirModels());
  return file;
}

/**
 * Untrained models (seeded random weights) over the vocabulary of synthesized dialogues: their
 * greedy turns copy context words and change with every word of the history, which makes
 * "same turns as self-play" a sharp check.
 */
export function randomAirModels(): AirModels {
  const ls = synthesizeSplits({ train: 32, dev: 0, test: 0, seed: 3 }).train.map(toLearned);
  const vocab = Vocab.build(ls.flatMap((l) => [l.dialogue.tokens, l.intent.map((t) => t.word), ...l.flights.map((f) => f.map((t) => t.word)), [l.reservation.word]]));
  return createAirModels(vocab, { dim: 8, hidden: 16 }, 5);
}
