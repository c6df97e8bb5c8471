/**
 * Everything a chat needs, from CLI-style options: the model (a registry name or a model file),
 * its candidates (rankers), and the KB — a SQLite KB, a bAbI/DSTC6 KB text file (held in memory), or
 * by default a bAbI KB generated from a seed (same shape as the original one).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRng } from '../../../core/rng.js';
import { ConfigError, FormatError, errorText } from '../../../core/errors.js';
import { readBabiCandidates } from '../../../formats/babi.js';
import { generateRestaurants, MemoryKbStore } from '../kb.js';
import { BABI_KB, readKb, restaurantsToKbFacts } from '../kb-dialects.js';
import { SqliteKbStore } from '../kb-sqlite.js';
import { isModelFile, resolveModelContent, createModel } from '../../../rankers/registry.js';
import { readModelFile, type ModelFileContent } from '../../../formats/model-file.js';
import { DSTC2_MODELS } from '../models.js';
import { chatModelOf, type ChatModel } from './chat-model.js';
import type { SessionKb } from './session.js';

export interface BotSetupOptions {
  /** Registry name (`rules`, …) or model file (`*.dgm`). */
  readonly model: string;
  /** SQLite KB (`dialogym kb import`) or KB text file; default: a generated bAbI KB. */
  readonly kb?: string;
  /** Candidates file (one `1 utterance` per line), for ranking models; default: those a model file stores. */
  readonly candidates?: string;
  /** Seed of the generated KB (default 1). */
  readonly seed?: number;
  /** Accept the checkpoint of an unfinished `train` run as the model (refused by default). */
  readonly allowCheckpoint?: boolean;
}

export interface BotSetup {
  readonly model: ChatModel;
  readonly kb: SessionKb;
  /** Where the KB came from, for a banner line. */
  readonly kbSource: string;
  close(): void;
}

function isSqliteFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return n === 16 && buf.toString('latin1') === 'SQLite format 3\0';
  } catch {
    return false; // missing/unreadable: the text reader reports it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Opens the KB of a chat (see BotSetupOptions.kb). */
export function openKb(file: string | undefined, seed = 1): SessionKb & { source: string; close(): void } {
  if (file === undefined) {
    const store = new MemoryKbStore(generateRestaurants(createRng(seed)));
    return { store, dialect: BABI_KB, source: `generated bAbI KB (seed ${seed}, ${store.all().length} restaurants)`, close() {} };
  }
  if (isSqliteFile(file)) {
    const store = SqliteKbStore.open(file);
    return { store, dialect: store.dialect, source: `${file} (SQLite, ${store.size} restaurants, ${store.dialect.name})`, close: () => store.close() };
  }
  const { dialect, restaurants } = readKb(file);
  return { store: new MemoryKbStore(restaurants), dialect, source: `${file} (in memory, ${restaurants.length} restaurants, ${dialect.name})`, close() {} };
}

/**
 * Opens the KB and builds the model of a chat. A model file is read and decoded once (its stored
 * candidates and its weights come from the same read); `content` is that decoded file when the
 * caller has read it already (the CLI does, to check its flags), and then it is not read at all.
 */
export function setupBot(opts: BotSetupOptions, content?: ModelFileContent): BotSetup {
  // Checked before anything is opened: the task-6 models do not fit the chat's restaurant KBs.
  if (DSTC2_MODELS.includes(opts.model)) {
    throw new ConfigError(errorText`model '${opts.model}' is a bAbI task-6 (DSTC2) model: its api_calls and post-code KB do not fit the chat's restaurant KBs; evaluate it with ${{ run: 'eval', options: [['model', opts.model], ['train', '<task6-trn>'], ['data', '<task6 file>']] }}`);
  }
  const kb = openKb(opts.kb, opts.seed ?? 1);
  try {
    const file = content ?? (isModelFile(opts.model) ? readModelFile(opts.model) : undefined);
    // A model file that stores its candidates (dialogym train) needs no candidates file.
    const candidates = opts.candidates === undefined ? file?.candidates : readBabiCandidates(opts.candidates).candidates;
    if (candidates && candidates.length === 0) throw new FormatError(opts.candidates as string, 1, 'no candidate');
    const ctx = { kb: restaurantsToKbFacts(kb.store.all(), kb.dialect), ...(candidates ? { candidates } : {}), ...(opts.allowCheckpoint ? { allowCheckpoint: true } : {}) };
    const model = file ? resolveModelContent(file, opts.model, ctx) : createModel(opts.model, ctx);
    return { model: chatModelOf(model, candidates ? { candidates } : {}), kb: { store: kb.store, dialect: kb.dialect }, kbSource: kb.source, close: () => kb.close() };
  } catch (e) {
    kb.close();
    throw e;
  }
}
