/**
 * The readers under fuzzing, each with seeds cut from the real files (or generated where no
 * original exists: the KB-InfoBot TSV), and the property every mutated input must satisfy:
 * a typed DialogymError whose one-line message names the file, or a result that round-trips
 * (written back and read again, it is the same). Hangs are timed by the runner.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { DialogymError, FormatError, InternalError, ModelFileError } from '../../src/core/errors.js';
import { formatBabiCandidates, formatBabiDialogs, formatBabiKb, parseBabiCandidates, parseBabiDialogs, parseBabiKb, readBabiKb } from '../../src/formats/babi.js';
import { formatDstc6Data, formatDstc6Results, parseDstc6Data, parseDstc6Results } from '../../src/formats/dstc6.js';
import { airDataLines, airKbLines, airPredictionLines, formatAirLines, parseAirData, parseAirKb, parseAirPredictions } from '../../src/formats/airdialogue.js';
import { readTextFile } from '../../src/core/files.js';
import { decodeModelFile, encodeModelFile, type ModelFileContent } from '../../src/formats/model-file.js';
import { fillTensor, forgeModelFile, type ModelFileParts } from '../../src/formats/testing/forge-model-file.js';
import { formatKb, parseKb, type KbDialect } from '../../src/testbeds/restaurant/kb-dialects.js';
import { SqliteKbStore, importKbFile } from '../../src/testbeds/restaurant/kb-sqlite.js';
import type { ApiCall, Restaurant } from '../../src/testbeds/restaurant/kb.js';
import { BABI_KB, ratingIssue } from '../../src/testbeds/restaurant/kb-dialects.js';
import { forgeSqliteKb } from '../../src/testbeds/restaurant/testing/forge-kb.js';
import { kbValueIssue } from '../../src/formats/kb-values.js';
import { openSqlite } from '../../src/core/sqlite.js';
import { formatKbTsv, parseKbTsv } from '../../src/testbeds/infobot/movie-kb-tsv.js';
import { splitKbs } from '../../src/testbeds/infobot/generate.js';
import { loadPolicy } from '../../src/testbeds/infobot/agents/policy-file.js';
import { e2eFromContent } from '../../src/testbeds/infobot/agents/e2e-file.js';
import { modelFromContent, trainModel, saveModel } from '../../src/rankers/registry.js';
import { Tfidf } from '../../src/rankers/tfidf.js';
import { syntheticCandidates, syntheticDialogs } from '../../src/rankers/testing/synthetic.js';
import '../../src/index.js'; // every testbed, loaded
import { airDir, babiDir, dstc6Dir, repoRoot } from '../shared-data.js';
import { trainTinyHcn } from '../tiny-hcn.js';
import { applyByteOps, byteOp, mutatedText, NASTY_JSON, NASTY_TOKENS } from './mutate.js';

/** What one mutated input gave: accepted (and round-tripped), rejected with a typed error, or a failure of the property. */
export type Outcome = { readonly kind: 'accepted' | 'rejected' } | { readonly kind: 'failure'; readonly why: string };

/** A reader under fuzzing: the arbitrary of its mutated inputs and the property check of one input. */
export interface FuzzTarget<T = unknown> {
  readonly name: string;
  /** The file name the reader is given (errors must name it). */
  readonly file: string;
  readonly input: fc.Arbitrary<T>;
  /** Runs the reader on one input; returns undefined when accepted and round-tripped, else why not (`refused …` when it was refused in the wrong way). Throws what the reader throws. */
  readonly run: (input: T) => string | undefined;
  /** The input as bytes, for the failure folder. */
  readonly bytes: (input: T) => Uint8Array;
}

/** Classifies what `target.run` did with one input. */
export function check<T>(target: FuzzTarget<T>, input: T): Outcome {
  try {
    const bad = target.run(input);
    return bad === undefined ? { kind: 'accepted' } : { kind: 'failure', why: bad.startsWith('refused ') ? bad : `accepted but ${bad}` };
  } catch (e) {
    if (!(e instanceof DialogymError)) return { kind: 'failure', why: `untyped error: ${e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : String(e)}` };
    if (e instanceof InternalError) return { kind: 'failure', why: `internal error: ${e.message}` };
    if (e.message.includes('\n')) return { kind: 'failure', why: `multi-line error: ${JSON.stringify(e.message.slice(0, 200))}` };
    if (!e.message.includes(target.file)) return { kind: 'failure', why: `error does not name the file: ${e.message.slice(0, 200)}` };
    return { kind: 'rejected' };
  }
}

const need = (file: string): string => readFileSync(file, 'utf8');
const dialogsOf = (text: string, n: number): string => text.split('\n\n').slice(0, n).join('\n\n') + '\n\n';
const linesOf = (text: string, from: number, n: number): string => text.split('\n').slice(from, from + n).join('\n') + '\n';
const same = (a: unknown, b: unknown, what: string): string | undefined => (isDeepStrictEqual(a, b) ? undefined : `${what} does not round-trip`);

function textTarget(name: string, file: string, seeds: readonly string[], run: (text: string, file: string) => string | undefined): FuzzTarget<{ seed: number; text: string }> {
  return { name, file, input: mutatedText(seeds), run: (i) => run(i.text, file), bytes: (i) => Buffer.from(i.text, 'utf8') };
}

/** Reads of 61 bytes: the mutated lines are cut across reads (the files are a few KB). */
const STREAM_CHUNK = { chunkBytes: 61 } as const;

/**
 * The AirDialogue streaming reader against the whole-file one (`readTextFile` + the text parser)
 * on `text` written to `dir`/`name`: the same values, or the same error — except that the
 * whole-file reader checks the whole file for binary content first, so where it reports a NUL
 * byte the streaming reader may report an earlier bad line instead (never a later one).
 * Returns why they disagree, or undefined.
 */
function streamDisagrees<T>(dir: string, name: string, text: string, parse: (t: string, f: string) => T[], stream: (file: string) => Iterable<T>): string | undefined {
  const file = join(dir, name);
  writeFileSync(file, text);
  const run = (f: () => T[]): { value?: T[]; error?: FormatError } => {
    try {
      return { value: f() };
    } catch (e) {
      if (e instanceof FormatError) return { error: e };
      return { error: new FormatError(file, undefined, `untyped ${String(e)}`) };
    }
  };
  const whole = run(() => parse(readTextFile(file), file));
  const streamed = run(() => [...stream(file)]);
  if (whole.error && streamed.error) {
    if (whole.error.message === streamed.error.message) return undefined;
    const binary = whole.error.reason.startsWith('binary data');
    if (binary && (streamed.error.line ?? 0) < (whole.error.line ?? 0)) return undefined;
    return `the streaming reader says "${streamed.error.message.slice(0, 160)}", the whole-file reader "${whole.error.message.slice(0, 160)}"`;
  }
  if (whole.error || streamed.error) return `only the ${whole.error ? 'whole-file' : 'streaming'} reader refuses it: ${(whole.error ?? streamed.error)!.message.slice(0, 160)}`;
  return isDeepStrictEqual(whole.value, streamed.value) ? undefined : 'the streaming and whole-file readers give different values';
}

/** The text readers: the nine of src/formats plus the testbeds' restaurant KB and KB-InfoBot TSV readers (`dir`: scratch files of the AirDialogue streaming readers). */
export function textTargets(dir: string): FuzzTarget<{ seed: number; text: string }>[] {
  const babi = (f: string): string => need(join(babiDir, f));
  const dstc6 = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');
  const tst = (task: string): string => join(dstc6, 'tst1', `dialog-${task}-kb1_atmosphere-distr0.5-tst1000`);
  const firstEntries = (f: string, n: number): unknown[] => (JSON.parse(need(f)) as unknown[]).slice(0, n);
  const dataSeeds = [
    formatDstc6Data(parseDstc6Data(JSON.stringify(firstEntries(`${tst('task1API')}.json`, 2)), 'x')),
    formatDstc6Data(parseDstc6Data(JSON.stringify(firstEntries(`${tst('task5FULL')}.json`, 1)), 'x')),
  ];
  const answers = formatDstc6Results(parseDstc6Results(JSON.stringify(firstEntries(`${tst('task1API')}.answers.json`, 4)), 'x'));
  const airData = need(join(airDir, 'dev_data.json'));
  const airKb = need(join(airDir, 'dev_kb.json'));
  const actions = parseAirData(linesOf(airData, 0, 6)).map((d) => d.action);
  const kbAll = babi('dialog-babi-kb-all.txt');
  const ext = need(join(dstc6, 'extendedkb1.txt'));
  const tsv = formatKbTsv(splitKbs('small', 1).full).split('\n').slice(0, 12).join('\n') + '\n';
  return [
    textTarget('babi-dialogs', 'fuzz-dialogs.txt', [dialogsOf(babi('dialog-babi-task5-full-dialogs-dev.txt'), 1), dialogsOf(babi('dialog-babi-task6-dstc2-dev.txt'), 1), dialogsOf(babi('dialog-babi-task1-API-calls-dev.txt'), 2)], (t, f) => {
      const d = parseBabiDialogs(t, f);
      return formatBabiDialogs(d.dialogs, d.eol) === t ? undefined : 'the dialogs do not write back to the same text';
    }),
    textTarget('babi-candidates', 'fuzz-candidates.txt', [linesOf(babi('dialog-babi-candidates.txt'), 0, 12), babi('dialog-babi-task6-dstc2-candidates.txt').split('\n').slice(-8).join('\n')], (t, f) => {
      const c = parseBabiCandidates(t, f);
      return formatBabiCandidates(c) === t ? undefined : 'the candidates do not write back to the same text';
    }),
    textTarget('babi-kb', 'fuzz-kb.txt', [linesOf(kbAll, 0, 14), linesOf(babi('dialog-babi-task6-dstc2-kb.txt'), 0, 14)], (t, f) => {
      const k = parseBabiKb(t, f);
      return formatBabiKb(k) === t ? undefined : 'the KB facts do not write back to the same text';
    }),
    textTarget('restaurant-kb', 'fuzz-restaurant-kb.txt', [linesOf(kbAll, 0, 14), linesOf(ext, 0, 18)], (t, f) => {
      const k = parseKb(t, f);
      return same(parseKb(formatKb(k.restaurants, k.dialect), f, k.dialect as KbDialect).restaurants, k.restaurants, 'the restaurants');
    }),
    textTarget('dstc6-data', 'fuzz-data.json', dataSeeds, (t, f) => {
      const d = parseDstc6Data(t, f);
      return same(parseDstc6Data(formatDstc6Data(d), f), d, 'the entries');
    }),
    textTarget('dstc6-results', 'fuzz-answers.json', [answers, answers.replace(/"rank": 1/g, '"rank": "1"')], (t, f) => {
      const r = parseDstc6Results(t, f);
      return same(parseDstc6Results(formatDstc6Results(r), f), r, 'the results');
    }),
    textTarget('airdialogue-data', 'fuzz-air-data.json', [linesOf(airData, 0, 2), linesOf(airData, 7, 1)], (t, f) => {
      const disagree = streamDisagrees(dir, f, t, parseAirData, (file) => airDataLines(file, STREAM_CHUNK));
      if (disagree !== undefined) return disagree;
      const d = parseAirData(t, f);
      return same(parseAirData(formatAirLines(d), f), d, 'the data lines');
    }),
    textTarget('airdialogue-kb', 'fuzz-air-kb.json', [linesOf(airKb, 0, 1), linesOf(airKb, 3, 1)], (t, f) => {
      const disagree = streamDisagrees(dir, f, t, parseAirKb, (file) => airKbLines(file, STREAM_CHUNK));
      if (disagree !== undefined) return disagree;
      const k = parseAirKb(t, f);
      return same(parseAirKb(formatAirLines(k), f), k, 'the KB lines');
    }),
    textTarget('airdialogue-predictions', 'fuzz-pred.json', [formatAirLines(actions), formatAirLines(actions.map((action) => ({ action })))], (t, f) => {
      const disagree = streamDisagrees(dir, f, t, parseAirPredictions, (file) => airPredictionLines(file, STREAM_CHUNK));
      if (disagree !== undefined) return disagree;
      const p = parseAirPredictions(t, f);
      return same(parseAirPredictions(formatAirLines(p), f), p, 'the predictions');
    }),
    textTarget('infobot-kb-tsv', 'fuzz-db.txt', [tsv, tsv.replace(/\n/g, '\r\n')], (t, f) => {
      const k = parseKbTsv(t, f);
      const back = parseKbTsv(formatKbTsv(k), f);
      return same([back.titles, back.vocab, [...back.cells]], [k.titles, k.vocab, [...k.cells]], 'the KB');
    }),
  ];
}

/**
 * Model files: the shipped KB-InfoBot policies and small ranker models, with forged headers, or
 * forged tensors (non-finite weights, aliased, overlapping, out-of-range or gapped regions), both
 * with a valid checksum, or damaged bytes. A forged tensor must be refused, naming the tensor.
 */
export function modelTarget(dir: string): FuzzTarget<{ bytes: Buffer; seed: number; forged: boolean; mustFail?: string }> {
  const file = join(dir, 'fuzz-model.dgm');
  const seeds: Buffer[] = [readFileSync(join(repoRoot, 'policies', 'infobot', 'rl-soft-small.dgm')), readFileSync(join(repoRoot, 'policies', 'infobot', 'e2e-soft-small.dgm'))];
  const rankers = seeds.length; // seeds from here on are rankers, whose metadata has a schema (schemas/model-meta.schema.json)
  const train = syntheticDialogs(12, 1);
  const dev = syntheticDialogs(4, 2);
  const candidates = syntheticCandidates();
  seeds.push(encodeModelFile(Tfidf.fit(candidates, { input: 'history', matchType: false }).toModelFile()));
  for (const model of ['memn2n', 'embeddings', 'nn'] as const) {
    const f = join(dir, `seed-${model}.dgm`);
    saveModel(f, trainModel(model, { train, dev, candidates }, model === 'nn' ? {} : { epochs: 1, dim: 8, seed: 1 }).model);
    seeds.push(readFileSync(f));
  }
  seeds.push(encodeModelFile(trainTinyHcn(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts, { dialogs: 20, epochs: 1 }).model.toModelFile()));
  const metas = seeds.map((b) => decodeModelFile(b).meta);
  const forged = fc
    .record({ seed: fc.integer({ min: 0, max: seeds.length - 1 }), edits: fc.array(fc.record({ path: fc.noBias(fc.integer({ min: 0, max: 2 ** 30 })), value: fc.constantFrom(...NASTY_JSON) }), { minLength: 1, maxLength: 3 }) })
    .map(({ seed, edits }) => ({ bytes: forgeHeader(seeds[seed] as Buffer, edits), seed, forged: true }));
  const tensors = fc
    .record({ seed: fc.integer({ min: 0, max: seeds.length - 1 }), forgery: tensorForgery })
    .map(({ seed, forgery }) => {
      let changed = false;
      const bytes = forgeModelFile(seeds[seed] as Buffer, (p) => (changed = applyTensorForgery(p, forgery)));
      return { bytes, seed, forged: true, ...(changed ? { mustFail: forgery.kind } : {}) };
    });
  const damaged = fc.record({ seed: fc.integer({ min: 0, max: seeds.length - 1 }), ops: fc.array(byteOp, { minLength: 1, maxLength: 4 }) }).map(({ seed, ops }) => ({ bytes: applyByteOps(seeds[seed] as Buffer, ops), seed, forged: false }));
  return {
    name: 'model-file',
    file,
    input: fc.oneof({ weight: 3, arbitrary: forged }, { weight: 2, arbitrary: tensors }, { weight: 1, arbitrary: damaged }),
    bytes: (i) => i.bytes,
    run: (i) => {
      let c: ModelFileContent;
      try {
        c = decodeModelFile(i.bytes, file);
      } catch (e) {
        // A forged tensor is refused by the reader itself, in one line naming the tensor (or the bytes that belong to none).
        if (i.mustFail !== undefined && e instanceof ModelFileError && !/tensor "[^"]*" \(index \d+\): |belong to no tensor/.test(e.message)) return `refused a forged tensor (${i.mustFail}) without naming it: ${e.message.slice(0, 200)}`;
        throw e;
      }
      if (i.mustFail !== undefined) return `a forged tensor (${i.mustFail}) was read`;
      const back = decodeModelFile(encodeModelFile(c), file);
      if (!isDeepStrictEqual(back, c)) return 'the content does not round-trip';
      if (c.model === 'infobot-policy') {
        writeFileSync(file, i.bytes);
        loadPolicy(file);
      } else if (c.model === 'infobot-e2e') e2eFromContent(c, file);
      else modelFromContent(c, file);
      // A ranker loaded from a forged header must not have taken a value of another JSON type than
      // its own (a config.input of 0, a dim of "abc"): that is a silently accepted invalid value.
      const drift = i.seed >= rankers ? typeDrift(metas[i.seed], c.meta, 'meta') : undefined;
      return drift === undefined ? undefined : `accepted a forged ${drift}`;
    },
  };
}

/** The first place where `b` holds a value of another JSON type than `a` (a KB's `null` ↔ list is no drift), or undefined. */
function typeDrift(a: unknown, b: unknown, at: string): string | undefined {
  const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'list' : Number.isInteger(v) ? 'integer' : typeof v);
  const ka = kind(a);
  const kb = kind(b);
  if (ka !== kb) {
    if (at.endsWith('.kb') && (ka === 'null' || ka === 'list') && (kb === 'null' || kb === 'list')) return undefined;
    if (ka === 'number' && kb === 'integer') return undefined; // a real-valued field may hold a whole number
    return `${at} (${ka} → ${JSON.stringify(b)?.slice(0, 30)})`;
  }
  if (ka === 'list' || ka === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of Object.keys(y)) if (k in x) {
      const d = typeDrift(x[k], y[k], Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`);
      if (d !== undefined) return d;
    }
  }
  return undefined;
}

/** Re-encodes a model file after setting values at random places of its JSON header (the checksum is recomputed: a forged file). */
function forgeHeader(buf: Buffer, edits: readonly { path: number; value: unknown }[]): Buffer {
  return forgeModelFile(buf, ({ header }) => {
    const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
    const walk = (v: unknown, depth: number): void => {
      if (depth > 3 || v === null || typeof v !== 'object') return;
      const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.slice(0, 6).map((x, k) => [k, x]) : Object.entries(v).slice(0, 30);
      for (const [k, x] of entries) {
        slots.push([v as Record<string, unknown>, k]);
        walk(x, depth + 1);
      }
    };
    walk(header, 0);
    for (const e of edits) {
      const [obj, key] = slots[e.path % slots.length] as [Record<string, unknown>, string];
      obj[key] = e.value;
    }
  });
}

/** A forgery that a valid checksum must not get past: a weight made non-finite, or a tensor region moved onto another, past the data or away from the others. */
export type TensorForgery = { readonly kind: 'nan-fill' | 'inf-value' | 'alias' | 'overlap' | 'out-of-range' | 'gap'; readonly tensor: number; readonly other: number; readonly at: number };

export const tensorForgery: fc.Arbitrary<TensorForgery> = fc.record({
  kind: fc.constantFrom('nan-fill' as const, 'inf-value' as const, 'alias' as const, 'overlap' as const, 'out-of-range' as const, 'gap' as const),
  tensor: fc.nat(),
  other: fc.nat(),
  at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
});

/**
 * Applies a forgery to a model file's parts, to a tensor holding values (index `tensor` modulo
 * their number); returns false when the file has no tensor that the forgery can change.
 */
export function applyTensorForgery(p: ModelFileParts, f: TensorForgery): boolean {
  type T = { offset: number; length: number };
  const full = p.header.tensors.map((t, i) => [i, t as unknown as T] as const).filter(([, t]) => t.length > 0);
  if (full.length === 0) return false;
  const [i, t] = full[f.tensor % full.length] as readonly [number, T];
  const others = full.filter(([k]) => k !== i);
  const [, o] = (others[f.other % Math.max(1, others.length)] ?? [i, t]) as readonly [number, T];
  switch (f.kind) {
    case 'nan-fill':
      fillTensor(p, i);
      break;
    case 'inf-value':
      p.data.writeFloatLE(f.at < 0.5 ? Infinity : -Infinity, t.offset + 4 * Math.floor(f.at * t.length));
      break;
    case 'alias':
      if (o === t) return false;
      t.offset = o.offset;
      break;
    case 'overlap':
      // Starts inside another tensor's region, past its first float (at its first, it is an alias).
      if (o === t || o.length < 2) return false;
      t.offset = o.offset + 4 * (1 + Math.floor(f.at * (o.length - 1)));
      break;
    case 'out-of-range':
      t.offset = p.header.dataBytes - 4 * Math.floor(f.at * t.length);
      break;
    case 'gap': {
      // Moved up by 1–8 floats, the data grown (zeros) so that it still ends inside it.
      t.offset += 4 * (1 + Math.floor(f.at * 8));
      const grow = t.offset + 4 * t.length - p.header.dataBytes;
      if (grow > 0) {
        p.data = Buffer.concat([p.data, Buffer.alloc(grow)]);
        p.header.dataBytes += grow;
      }
      break;
    }
  }
  return true;
}

const CALLS: ApiCall[] = [
  { cuisine: 'italian', location: 'rome', number: 'six', price: 'cheap' },
  { cuisine: 'british', location: 'london', number: 'two', price: 'expensive' },
  { cuisine: 'spanish', location: 'paris', number: 'four', price: 'moderate' },
];

/** A value forged into one cell of a SQLite KB, its content checksum recomputed. */
export interface KbForgery {
  readonly row: number;
  readonly column: (typeof KB_COLUMNS)[number];
  readonly value: string | number;
}

const KB_COLUMNS = ['name', 'cuisine', 'location', 'price', 'rating', 'phone', 'address', 'number'] as const;

/** Values a forger writes into a KB cell: the nasty tokens, KB-line shapes, a control character, extreme or in-range integers, fit words. */
const kbForgery: fc.Arbitrary<KbForgery> = fc.record({
  row: fc.integer({ min: 1, max: 1200 }),
  column: fc.constantFrom(...KB_COLUMNS),
  value: fc.oneof(
    fc.constantFrom(...NASTY_TOKENS, 'x\nresto_y R_phone forged', 'resto_y R_address forged', 'api_call italian rome six cheap', 'R_phone', 'a\u001b[2Jb', 'fit_value', 'six'),
    fc.constantFrom(0, -1, 1, 5, 8, 9, 72, 2 ** 31, Number.MAX_SAFE_INTEGER),
  ),
});

/**
 * SQLite KBs with damaged bytes — rejected naming the file, or every row and query answer
 * unchanged — and with a forged cell under a recomputed checksum: a value unfit for a KB (a
 * newline, a TAB, a KB-fact or api_call shape, a rating outside 1–8…) refused naming its row; a fit
 * one read back as forged.
 */
export function sqliteTarget(dir: string): FuzzTarget<{ bytes: Buffer; forgery?: KbForgery }> & { readonly cleanup: () => void } {
  const seedFile = join(dir, 'seed-kb.sqlite');
  importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), seedFile);
  const seed = readFileSync(seedFile);
  const store = SqliteKbStore.open(seedFile);
  const rows = store.all();
  const answers = CALLS.map((c) => store.query(c));
  store.close();
  const file = join(dir, 'fuzz-kb.sqlite');
  const damaged = fc.array(byteOp, { minLength: 1, maxLength: 6 }).map((ops) => ({ bytes: applyByteOps(seed, ops) }));
  const forged = kbForgery.map((forgery) => ({ bytes: seed, forgery }));
  return {
    name: 'sqlite-kb',
    file,
    input: fc.oneof({ weight: 2, arbitrary: damaged }, { weight: 1, arbitrary: forged }),
    bytes: (i) => i.bytes,
    run: (i) => {
      writeFileSync(file, i.bytes);
      const f = i.forgery;
      if (f !== undefined) return forgedCell(file, f, rows);
      const s = SqliteKbStore.open(file);
      try {
        const got: Restaurant[] = s.all();
        if (!isDeepStrictEqual(got, rows)) return 'the restaurants differ from the original';
        for (let k = 0; k < CALLS.length; k++) if (!isDeepStrictEqual(s.query(CALLS[k] as ApiCall), answers[k])) return `the answer to call ${k + 1} differs`;
        return undefined;
      } finally {
        s.close();
      }
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Forges one cell of the KB at `file` and opens it: an unfit value must be refused naming its row, a fit one read back. */
function forgedCell(file: string, f: KbForgery, rows: readonly Restaurant[]): string | undefined {
  if (f.column === 'name' && rows.some((r, k) => r.name === String(f.value) && k !== f.row - 1)) return undefined; // UNIQUE: not a KB a forger can write
  forgeSqliteKb(file, `UPDATE restaurants SET ${f.column} = ? WHERE id = ?`, [f.value, f.row]);
  // What SQLite stored (column affinity turns '5' into 5 in the rating, 5 into '5' in a text column).
  const db = openSqlite(file, { readonly: true });
  const cell = db.prepare(`SELECT typeof(${f.column}) AS type, CAST(${f.column} AS TEXT) AS text FROM restaurants WHERE id = ?`).get([f.row]) as { type: string; text: string };
  db.close();
  const unfit =
    f.column === 'rating'
      ? cell.type !== 'integer' ? `is ${cell.type}` : ratingIssue(Number(cell.text), BABI_KB)
      : cell.type !== 'text' ? `is ${cell.type}` : kbValueIssue(cell.text, { oneWord: true });
  let s: SqliteKbStore;
  try {
    s = SqliteKbStore.open(file);
  } catch (e) {
    const msg = e instanceof Error ? e.message.slice(0, 200) : String(e);
    if (unfit === undefined) return `refused a fit forged ${f.column} of row ${f.row} (${JSON.stringify(cell.text).slice(0, 40)}): ${msg}`;
    if (e instanceof DialogymError && !e.message.includes(`row ${f.row} (`)) return `refused a forged ${f.column} of row ${f.row} without naming the row: ${msg}`;
    throw e;
  }
  try {
    if (unfit !== undefined) return `a forged ${f.column} of row ${f.row} (${JSON.stringify(cell.text).slice(0, 40)}, which ${unfit}) was read`;
    const got = (s.all()[f.row - 1] as unknown as Record<string, unknown>)[f.column];
    return String(got) === cell.text ? undefined : `the forged ${f.column} of row ${f.row} reads back as ${JSON.stringify(got)}`;
  } finally {
    s.close();
  }
}

export function fuzzDir(): string {
  return mkdtempSync(join(tmpdir(), 'dialogym-fuzz-'));
}
