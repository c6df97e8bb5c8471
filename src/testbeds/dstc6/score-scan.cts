/**
 * DSTC6 result files read the quick way for scoring, in one pass that checks the shape as it
 * reads: a file that is exactly a result file (schemas/dstc6-results.schema.json: an array of
 * `{dialog_id, lst_candidate_id: [{candidate_id, rank}]}` with no other key, ids of 1-200
 * characters, at most 100,000 candidates, integer ranks 1-1,000,000) is
 * - in its plain spelling (keys in that order, ids of printable ASCII without escapes, ranks as
 *   plain digits - what the official tools and dialogym write), checked and tabled by a
 *   WebAssembly byte scanner at native speed from the first byte (offsets and ranks, no JSON value
 *   built), and scored from the table there too: the truth file stays in the scanner's memory
 *   with a hash table of its dialog ids, and the result's ranks of the answers are read by id,
 *   bytes compared in place (no id is made a string; 20 calls on the DSTC6 test files: ~1.2 ms
 *   of CPU less a call than the JavaScript walk of the two tables, which stays for a result that
 *   lists a dialog the truth has not);
 * - otherwise, when it is ASCII, parsed by `JSON.parse` and checked in the same walk that scores
 *   it (none of `parseJsonText`'s nesting/number walk is needed: such a value cannot nest deeper
 *   than four levels nor hold a non-finite number).
 * Anything else (non-ASCII bytes, invalid JSON, another shape or key, a file too large or
 * unreadable) gives undefined, and the caller goes through the checking readers, which score what
 * they accept or report the one-line error. Measured on the 20 DSTC6 test files in one process:
 * 95 ms with JSON.parse and the walk, 67 ms with the scanner; a scanner in JavaScript beat
 * JSON.parse only once the JIT had compiled it and cost 2-3x more on a process's first file.
 *
 * CommonJS with no import of the ES modules, so that the CLI's CommonJS entry (src/cli/main.cts)
 * can score a plain `dialogym dstc6 score` without starting the ES module loader; ./score-quick.ts
 * uses the same functions.
 */
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Largest file read here: larger ones go to the checking readers (keep <= core/files.ts MAX_TEXT_FILE_BYTES; a test checks it). */
export const SCAN_MAX_BYTES = 256 * 1024 * 1024;
/** Schema bounds (schemas/dstc6-results.schema.json). */
const MAX_ID = 200;
const MAX_CANDIDATES = 100_000;
const MAX_RANK = 1_000_000;

/** An entry as JSON.parse gives it (unchecked). */
interface Entry {
  readonly dialog_id: unknown;
  readonly lst_candidate_id: unknown;
}

/** A candidate as JSON.parse gives it (unchecked). */
interface Candidate {
  readonly candidate_id: unknown;
  readonly rank: unknown;
}

/** A candidate once checked. */
interface CheckedCandidate {
  readonly candidate_id: string;
  readonly rank: number;
}

// ---------------------------------------------------------------------------------------------
// The byte scanner (WebAssembly; its code is written out in test/dstc6-scanner-wasm.ts).

/** A WebAssembly memory, as used here. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The WebAssembly constructors used here, typed (the project's lib settings do not declare the API). */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => object;
      Memory: new (descriptor: { initial: number }) => WasmMemory;
      Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { readonly exports: Record<string, unknown> };
    };
  }
).WebAssembly;

/** Where the file's bytes start in the scanner's memory (the keys it matches come first); a 0 byte follows them (no byte of the grammar). */
export const INPUT = 64;

/**
 * The scanner's WebAssembly module, made by test/dstc6-scanner-wasm.ts (`scannerBytes`, where its
 * code is written out and commented) and checked equal to it by score-quick.test.ts; building it
 * at run time cost ~1 ms of a ~30 ms process, compiling it costs 0.25 ms. Its export
 * `scan(n, out)` reads the n bytes at INPUT as a result file in the plain spelling and returns
 * its entries (-1 when they are not one), after writing its table at byte offset `out`: per
 * entry dialog_id start and end, the count of its candidates, then per candidate candidate_id
 * start and end and rank (i32 each; offsets in memory).
 */
export const SCANNER_WASM =
  'AGFzbQEAAAABKQVgAX8Bf2ADf39/AX9gBH9/f38Bf2AFf39/f38Bf2AHf39/f39/fwF/AggBAWUBbQIAAQMIBwABAgMDBAMHIAQEc2NhbgABBXRydXRoAAQFbWF0Y2gABQV0YWxseQAGCs4bB5IBAgJ/AXsgAC0AAEEiRwRAQX8PCyAAQQFqIQECQANAIAH9AAAAIQMgA0Eg/Q/9cUHeAP0P/SggA0Ei/Q/9I/1QIANB3AD9D/0j/VD9ZCICBEAgASACaGohAQwCCyABQRBqIQEMAAsLIAEtAABBIkcEQEF/DwsgASAAa0ECSSABIABrQckBS3IEQEF/DwsgAUEBagvnEQEJfyAAIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsgAy0AAEHbAEcEQEF/DwsgA0EBaiEDA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLIAIhBAJAIAMtAABB3QBGDQADQCADKQAAQvvEkMuWjNu35wBRIAMoAAhB39KRkwJGcSADLwAMQbrAAEZxIAMtAA5BIkZxBEAgA0EOaiEDBSADLQAAQfsARwRAQX8PCyADQQFqIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsgAykAAEEAKQAAUiADKQADQQApAANScgRAQX8PCyADQQtqIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsgAy0AAEE6RwRAQX8PCyADQQFqIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsLIANBAWohCiADEAAiA0EASARAQX8PCyAEIAo2AgAgBCADQQFrNgIEIARBCGohByAEQQxqIQQgAykAAEKswIjhto7dr+MAUSADKQAIQuHckcvGrJi65QBRcSADKAAQQd/SkZMCRnEgAy8AFEG6wABGcSADLQAWQdsARnEEQCADQRdqIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsFA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLIAMtAABBLEcEQEF/DwsgA0EBaiEDA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLIAMpAABBCykAAFIgAykACEELKQAIUnIgAykACkELKQAKUnIEQEF/DwsgA0ESaiEDA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLIAMtAABBOkcEQEF/DwsgA0EBaiEDA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLIAMtAABB2wBHBEBBfw8LIANBAWohAwNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCwtBACEGAkAgAy0AAEHdAEYNAANAIAMpAABC+8SMi+aN2bTkAFEgAykACELh6JX7lY2ZkTpRcSADLwAQQaDEAEZxBEAgA0ERaiEDBSADLQAAQfsARwRAQX8PCyADQQFqIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsgAykAAEEdKQAAUiADKQAGQR0pAAZScgRAQX8PCyADQQ5qIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsgAy0AAEE6RwRAQX8PCyADQQFqIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsLIANBAWohCiADEAAiA0EASARAQX8PCyAEIAo2AgAgBCADQQFrNgIEIAMpAABCrMCIkZfM27UiUSADLwAIQbrAAEZxBEAgA0EKaiEDA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLBQNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCyADLQAAQSxHBEBBfw8LIANBAWohAwNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCyADKAAAQSsoAABHIAMoAAJBKygAAkdyBEBBfw8LIANBBmohAwNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCyADLQAAQTpHBEBBfw8LIANBAWohAwNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCwsgAy0AACEJIAlBMUkgCUE5S3IEQEF/DwtBACEIAkADQCADLQAAIglBMGtBCUsNASAIQQpsIAlqQTBrIghBwIQ9SwRAQX8PCyADQQFqIQMMAAsLIAlBLkYgCUHlAEZyIAlBxQBGcgRAQX8PCyAEIAg2AgggBEEMaiEEIAZBAWoiBkGgjQZLBEBBfw8LIAMoAABB/diA2QdGBEAgA0EDaiEDDAELA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLIAMtAABB/QBHBEBBfw8LIANBAWohAwNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCyADLQAAQSxGBEAgA0EBaiEDA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLDAELIAMtAABB3QBHBEBBfw8LCwsgByAGNgIAIAMoAABB3fqxgQJGIAMtAARB+wBGcQRAIANBBGohAyAFQQFqIQUMAQsgA0EBaiEDA0AgAy0AACELIAtBIEYgC0EJRnIgC0EKRnIgC0ENRnIEQCADQQFqIQMMAQsLIAMtAABB/QBHBEBBfw8LIAVBAWohBSADQQFqIQMDQCADLQAAIQsgC0EgRiALQQlGciALQQpGciALQQ1GcgRAIANBAWohAwwBCwsgAy0AAEEsRgRAIANBAWohAwNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCwwBCyADLQAAQd0ARwRAQX8PCwsLIANBAWohAwNAIAMtAAAhCyALQSBGIAtBCUZyIAtBCkZyIAtBDUZyBEAgA0EBaiEDDAELCyADIAEgAGpHBEBBfw8LIAULfAAgASAAayADIAJrRwRAQQAPCwJAA0AgAEEIaiABTUUNAQJAIAApAAAgAikAAFIEQEEADwsLIABBCGohACACQQhqIQIMAAsLAkADQCAAIAFJRQ0BAkAgAC0AACACLQAARwRAQQAPCwsgAEEBaiEAIAJBAWohAgwACwtBAQvhAQEDf0HFu/KIeCEFIAAhBgJAA0AgBkEEaiABTUUNAQJAIAUgBigCAHNBk4OACGwhBQsgBkEEaiEGDAALCwJAA0AgBiABSUUNAQJAIAUgBi0AAHNBk4OACGwhBQsgBkEBaiEGDAALCyAFIAVBEHZzQeuUr694bCEFIAUgBUENdnMhBQNAIAIgBSADcUECdGooAgAiB0UEQCACIAUgA3FBAnRqDwsgACABIAQgB0EBa0EEdGooAgAgBCAHQQFrQQR0aigCBBACBEAgAiAFIANxQQJ0ag8LIAVBAWohBQwAC0EAC84BAQZ/IAAhBUEAIQYCQANAIAYgAUlFDQECQCAFQQxqIAUoAghBDGxqIQcgBCAGQQR0aiEJIAkgBSgCADYCACAJIAUoAgQ2AgRBACEIIAVBDGohBQJAA0AgBSAHSUUNAQJAIAUoAghBAUYEQCAFIQgLCyAFQQxqIQUMAAsLIAhFBEBBfw8LIAkgCCgCADYCCCAJIAgoAgQ2AgwgCSgCACAJKAIEIAIgAyAEEAMiCigCAARAQX8PCyAKIAZBAWo2AgALIAZBAWohBgwACwtBAAu9AgENfyAAIQdBACEIQQAhEgJAA0AgCCABSUUNAQJAIAdBDGogBygCCEEMbGohCSAHKAIAIAcoAgQgAyAEIAUQAygCACIKRQRAQX4PCyAFIApBAWtBBHRqIgsoAgwhDCALKAIIIQtBACENIAdBDGohDgJAA0AgDiAJSUUNAQJAIA4oAggiECACSw0AIA1BAEcgECANT3ENACAOKAIAIA4oAgQgCyAMEAJFDQBBACERIA5BDGohDwJAA0AgDyAJSSARRXFFDQECQCAPKAIIIBBGBEAgDygCACAPKAIEIAsgDBACRSERCwsgD0EMaiEPDAALCyARRQRAIBAhDQsLIA5BDGohDgwACwsgBiAKQQFrQQJ0aiITKAIABEAgEkEBaiESCyATIA1BAWo2AgAgCSEHCyAIQQFqIQgMAAsLIBIL3wECBH8BfAJAA0AgByADSUUNAQJAIARBEGogB0ECdGpBADYCAAsgB0EBaiEHDAALCwJAA0AgBSABSUUNAQJAIAAgBUECdGooAgBBAWsiBkEASARAIAhBAWohCAsgBkEASgRAQQAhBwJAA0AgByADSUUNAQJAIAYgAiAHQQJ0aigCAEwEQCAEQRBqIAdBAnRqIARBEGogB0ECdGooAgBBAWo2AgALCyAHQQFqIQcMAAsLIAlEAAAAAAAA8D8gBrejoCEJCwsgBUEBaiEFDAALCyAEIAk5AwAgBCAINgIIQQALCzcBAEEACzEiZGlhbG9nX2lkIiJsc3RfY2FuZGlkYXRlX2lkIiJjYW5kaWRhdGVfaWQiInJhbmsi';

/** The scanner's exports (see test/dstc6-scanner-wasm.ts). */
interface Scanner {
  readonly memory: WasmMemory;
  /** scan(b, n, out): the n bytes at b tabled at out; the entries, or -1. */
  readonly scan: (b: number, n: number, out: number) => number;
  /** truth(t, te, h, mask, ans): a truth table's answers and hash table of ids; 0, or -1 (an entry without a rank-1 candidate, or a dialog twice). */
  readonly truth: (t: number, te: number, h: number, mask: number, ans: number) => number;
  /** match(r, re, nb, h, mask, ans, ranks): a result table's ranks of the answers by truth entry (rank + 1; 0 not listed); the repeated listings, or -2 (a dialog not in the truth). */
  readonly match: (r: number, re: number, nb: number, h: number, mask: number, ans: number, ranks: number) => number;
  /** tally(ranks, n, ks, nks, out): `scoreInOrder` of the ranks `match` wrote: the sum of reciprocal ranks (f64) at out, the dialogs not listed at out + 8, the hits at each k at out + 16 (i32). */
  readonly tally: (ranks: number, n: number, ks: number, nks: number, out: number) => number;
}

/** The scanner, instantiated once on a memory that grows to the largest files read (null where WebAssembly is missing: the JSON.parse walk does all). */
let scanner: Scanner | null | undefined;

function scannerInstance(): Scanner | null {
  if (scanner === undefined) {
    try {
      const memory = new wasmApi.Memory({ initial: 1 });
      const instance = new wasmApi.Instance(new wasmApi.Module(Buffer.from(SCANNER_WASM, 'base64')), { e: { m: memory } });
      scanner = { memory, ...(instance.exports as unknown as Omit<Scanner, 'memory'>) };
    } catch {
      scanner = null;
    }
  }
  return scanner;
}

/** `n` rounded up to a multiple of 8. */
const align8 = (n: number): number => (n + 7) & ~7;

/** The memory at least `bytes` long. */
function reserve(wasm: Scanner, bytes: number): void {
  const need = bytes - wasm.memory.buffer.byteLength;
  if (need > 0) wasm.memory.grow(Math.ceil(need / 65536));
}

/** Buffer's own latin1 slice (what `toString('latin1', start, end)` calls after checking its arguments). */
type Latin1 = Buffer & { latin1Slice(start: number, end: number): string };

/** A file tabled by the scanner: where its table starts (bytes), its entries, the end of the file's bytes and of the room kept for its table. */
export interface Scanned {
  readonly out: number;
  readonly entries: number;
  readonly end: number;
  readonly tableEnd: number;
}

/** A file as read for scoring: tabled by the scanner (valid until its place in the scanner's memory is written again), or its text for the JSON.parse walk. */
type ReadFile = { readonly scanned: Scanned } | { readonly text: string };

/** The scanner's table of a file (see `scanBody`) and the memory it points into. */
export interface Table {
  /** The memory up to the file's end as a one-byte string, so that a table offset indexes it: ids are sliced from it and compared in it by String builtins (a JavaScript loop over the bytes, or a `latin1Slice` call per id, cost ~1 ms more a test file on the baseline tier). */
  readonly text: string;
  readonly i32: Int32Array;
  /** Where the table starts in `i32`. */
  readonly start: number;
  readonly entries: number;
}

/** The table of a scanned file, for the JavaScript walks (the JSON.parse path's answers, a result that lists a dialog the truth has not). */
export function tableOf(s: Scanned): Table {
  const { buffer } = (scanner as Scanner).memory;
  return { text: (Buffer.from(buffer) as Latin1).latin1Slice(0, s.end), i32: new Int32Array(buffer), start: s.out / 4, entries: s.entries };
}

/**
 * A file read for scoring at byte `at` of the scanner's memory (default INPUT, after the keys):
 * tabled by the scanner when it is a result file in the plain spelling, else its text when it is
 * ASCII; undefined when it is neither, cannot be read or is larger than SCAN_MAX_BYTES (the
 * checking readers then read or report it). ASCII: one character a byte, what UTF-8 decoding
 * gives too.
 */
export function readForScoring(file: string, at = INPUT): ReadFile | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size > SCAN_MAX_BYTES) return undefined;
    const wasm = scannerInstance();
    // the file at `at`, a 0 byte after it, then the table (at most 12 bytes for each 29 of the file)
    const out = align8(at + size + 1);
    const tableEnd = out + Math.ceil(size / 2) + 64;
    if (wasm !== null) reserve(wasm, tableEnd);
    const bytes = (wasm ? Buffer.from(wasm.memory.buffer) : Buffer.allocUnsafe(at + size + 1)) as Latin1;
    let done = 0;
    while (done < size) {
      const n = readSync(fd, bytes, at + done, size - done, null);
      if (n === 0) return undefined; // the file shrank while read
      done += n;
    }
    bytes[at + size] = 0;
    if (wasm) {
      const entries = wasm.scan(at, size, out);
      if (entries >= 0) return { scanned: { out, entries, end: at + size, tableEnd } };
    }
    const content = bytes.subarray(at, at + size);
    return isAscii(content) ? { text: content.toString('latin1') } : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The true answers of a tabled truth file, as `scanTruth` reads them. */
function tableTruth({ text, i32, start, entries }: Table): Map<string, string> | undefined {
  const answers = new Map<string, string>();
  let q = start;
  for (let e = 0; e < entries; e++) {
    const count = i32[q + 2] as number;
    const id = text.slice(i32[q] as number, i32[q + 1] as number);
    q += 3;
    let one = -1;
    for (let c = 0; c < count; c++) if (i32[q + 3 * c + 2] === 1) one = q + 3 * c;
    q += 3 * count;
    if (one < 0 || answers.has(id)) return undefined;
    answers.set(id, text.slice(i32[one] as number, i32[one + 1] as number));
  }
  return answers;
}

/**
 * The answer ranks of a tabled result file, as `scanAnswerRanks` reads them: the slots of
 * `rankOfAnswer`, with the items of the table (i32 triples: id start, id end, rank).
 */
function tableRanks({ text, i32, start, entries }: Table, answers: ReadonlyMap<string, string>, nb: number): AnswerRanks {
  const ranks = new Map<string, number | undefined>();
  let duplicated = 0;
  let q = start;
  for (let e = 0; e < entries; e++) {
    const count = i32[q + 2] as number;
    const id = text.slice(i32[q] as number, i32[q + 1] as number);
    q += 3;
    if (ranks.has(id)) duplicated++;
    const answer = answers.get(id);
    let best: number | undefined;
    if (answer !== undefined) {
      for (let i = q; i < q + 3 * count; i += 3) {
        const r = i32[i + 2] as number;
        if (r > nb || (best !== undefined && r >= best) || !spells(text, i32[i] as number, i32[i + 1] as number, answer)) continue;
        let overwritten = false;
        for (let j = i + 3; j < q + 3 * count && !overwritten; j += 3) overwritten = i32[j + 2] === r && !spells(text, i32[j] as number, i32[j + 1] as number, answer);
        if (!overwritten) best = r;
      }
    }
    ranks.set(id, best);
    q += 3 * count;
  }
  return { ranks, duplicated };
}

/** Whether text[start, end) is `s`. */
function spells(text: string, start: number, end: number, s: string): boolean {
  return end - start === s.length && text.startsWith(s, start);
}

/**
 * Whether `items` are at most MAX_CANDIDATES objects with a candidate_id of 1-MAX_ID characters
 * and an integer rank 1..MAX_RANK. A loop of its own, with no call: the hot loop of a file, which
 * V8's optimizing compiler compiles in a fraction of the time it takes for the whole walk.
 */
function candidatesOk(items: readonly unknown[]): boolean {
  if (items.length > MAX_CANDIDATES) return false;
  for (let j = 0; j < items.length; j++) {
    const c: unknown = items[j];
    if (typeof c !== 'object' || c === null) return false;
    const { candidate_id: cid, rank } = c as Candidate;
    // integer ranks 1..MAX_RANK (NaN fails the comparisons)
    if (typeof cid !== 'string' || cid === '' || cid.length > MAX_ID || typeof rank !== 'number' || !(rank >= 1 && rank <= MAX_RANK && rank % 1 === 0)) return false;
  }
  return true;
}

/**
 * Walks the entries of `text` when it is exactly a result file, calling `onEntry` with each
 * entry's dialog id and candidates once they are checked; whether it is one and every call
 * returned true. "No other key" is read from the text: each key of an object is followed by one
 * `:` outside the strings, so a text with exactly two colons per object (the entries and their
 * candidates, each with both keys checked) has no other key anywhere (a colon inside a string, a
 * key given twice only add to the count, and the file then goes to the checking reader); one
 * native regex count costs ~0.5 ms a test file, against ~10 ms for a loop of `indexOf` calls
 * before the JIT has compiled it.
 */
export function walkResultFile(text: string, onEntry: (dialogId: string, items: readonly CheckedCandidate[]) => boolean): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (!Array.isArray(value)) return false;
  let objects = value.length;
  for (let i = 0; i < value.length; i++) {
    // typeof 'object' and a string dialog_id: an object (an array has no such key)
    const e: unknown = value[i];
    if (typeof e !== 'object' || e === null) return false;
    const { dialog_id: id, lst_candidate_id: items } = e as Entry;
    if (typeof id !== 'string' || id === '' || id.length > MAX_ID || !Array.isArray(items) || !candidatesOk(items) || !onEntry(id, items as CheckedCandidate[])) return false;
    objects += items.length;
  }
  return (text.match(/:/g)?.length ?? 0) === 2 * objects;
}

/**
 * The true answers of a truth file read exactly (dialog_id -> the candidate_id of its rank-1
 * candidate, the last listed with rank 1), or undefined when the file is not exactly a result
 * file, an entry has no rank-1 candidate or a dialog is listed twice (the checking reader names it).
 */
export function scanTruth(text: string): Map<string, string> | undefined {
  const answers = new Map<string, string>();
  const ok = walkResultFile(text, (id, items) => {
    let one: string | undefined;
    for (let k = 0; k < items.length; k++) if ((items[k] as CheckedCandidate).rank === 1) one = (items[k] as CheckedCandidate).candidate_id;
    if (one === undefined || answers.has(id)) return false;
    answers.set(id, one);
    return true;
  });
  return ok ? answers : undefined;
}

/** Each result dialog's rank of its true answer (the last listing of a dialog wins) and how many listings repeat a dialog. */
export interface AnswerRanks {
  readonly ranks: Map<string, number | undefined>;
  readonly duplicated: number;
}

/**
 * The rank of each result dialog's true answer as score.py sees it (`rankOfAnswer`), or undefined
 * when `text` is not exactly a result file.
 */
export function scanAnswerRanks(text: string, answers: ReadonlyMap<string, string>, nb: number): AnswerRanks | undefined {
  const ranks = new Map<string, number | undefined>();
  let duplicated = 0;
  const ok = walkResultFile(text, (id, items) => {
    if (ranks.has(id)) duplicated++;
    const answer = answers.get(id);
    ranks.set(id, answer === undefined ? undefined : rankOfAnswer(items, answer, nb));
    return true;
  });
  return ok ? { ranks, duplicated } : undefined;
}

/**
 * The rank of `answer` among one entry's items as score.py sees it, or undefined when no kept
 * slot holds it: slot r holds the candidate of the last item with rank r (ranks above `nb`
 * dropped), and the answer's rank is the first slot holding it (perezjln/dstc6-goal-oriented-end-to-end
 * scripts/score.py: slots filled at line 63, the dialog's last listing kept at line 65,
 * `truth in test[0:k]` at line 76).
 */
export function rankOfAnswer(items: readonly { readonly candidate_id: string; readonly rank: number }[], answer: string, nb: number): number | undefined {
  return slotRank(items.length, (i) => (items[i] as (typeof items)[number]).rank, (i) => (items[i] as (typeof items)[number]).candidate_id === answer, nb);
}

/** `rankOfAnswer` over `count` items: item i has rank `rankOf(i)` and is the answer when `isAnswer(i)`. */
function slotRank(count: number, rankOf: (i: number) => number, isAnswer: (i: number) => boolean, nb: number): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < count; i++) {
    const r = rankOf(i);
    if (r > nb || (best !== undefined && r >= best) || !isAnswer(i)) continue;
    let overwritten = false;
    for (let j = i + 1; j < count && !overwritten; j++) overwritten = rankOf(j) === r && !isAnswer(j);
    if (!overwritten) best = r;
  }
  return best;
}

/** A score as ../../metrics/ranking.ts states it (PrecisionAtKState, MrrState) with the counts of `Dstc6Score` (./score-quick.ts). */
export interface QuickScore {
  readonly precision: { readonly ks: readonly number[]; readonly examples: number; readonly hits: readonly number[] };
  readonly mrr: { readonly examples: number; readonly sum: number };
  readonly dialogs: number;
  readonly missing: number;
  readonly duplicated: number;
}

/**
 * The score of the truth dialogs (in their order) given each result dialog's rank of its answer:
 * hits at each of `ks`, reciprocal ranks summed (a dialog missing from the result, or ranked
 * beyond the kept slots, is a miss and adds 0), missing dialogs.
 */
export function scoreOfRanks({ ranks, duplicated }: AnswerRanks, answers: ReadonlyMap<string, string>, ks: readonly number[]): QuickScore {
  return scoreInOrder(
    [...answers.keys()].map((id) => (ranks.has(id) ? (ranks.get(id) ?? 0) : -1)),
    0,
    duplicated,
    ks,
  );
}

/**
 * The score of the truth dialogs, dialog i's rank of its answer being `ranks[i] + shift` (0: none
 * kept, -1: not listed). One loop with no call a dialog: on the baseline tier, a function called
 * per dialog cost ~0.15 ms of the ~5 ms of a test file's `dstc6 score` process.
 */
function scoreInOrder(ranks: ArrayLike<number>, shift: number, duplicated: number, ks: readonly number[]): QuickScore {
  const n = ranks.length;
  const hits = ks.map(() => 0);
  let sum = 0;
  let missing = 0;
  for (let i = 0; i < n; i++) {
    const rank = (ranks[i] as number) + shift;
    if (rank < 0) missing++;
    if (rank >= 1) {
      for (let k = 0; k < ks.length; k++) if (rank <= (ks[k] as number)) hits[k] = (hits[k] as number) + 1;
      sum += 1 / rank;
    }
  }
  return { precision: { ks, examples: n, hits }, mrr: { examples: n, sum }, dialogs: n, missing, duplicated };
}

/**
 * `scoreInOrder` of the n ranks `match` wrote at `ranks` (rank + 1 each), by the scanner's `tally`
 * with its scratch at byte `at` (after every table): the same sums in the same order, with no
 * loop of the interpreter over the dialogs (~0.17 ms for a test file's thousand). `ks` are int32s.
 */
function tallied(wasm: Scanner, ranks: number, n: number, at: number, duplicated: number, ks: readonly number[]): QuickScore {
  const out = align8(at);
  const ksAt = out + 16 + 4 * ks.length;
  reserve(wasm, ksAt + 4 * ks.length);
  new Int32Array(wasm.memory.buffer, ksAt, ks.length).set(ks);
  wasm.tally(ranks, n, ksAt, ks.length, out);
  const { buffer } = wasm.memory;
  const counts = new Int32Array(buffer, out + 8, 2 + ks.length);
  const sum = new Float64Array(buffer, out, 1)[0] as number;
  return { precision: { ks, examples: n, hits: Array.from(counts.subarray(2)) }, mrr: { examples: n, sum }, dialogs: n, missing: counts[0] as number, duplicated };
}

/** A truth file tabled in the scanner's memory at INPUT, with its answers and the hash table of its ids (test/dstc6-scanner-wasm.ts `truth`), for the `truths` cache it was read for. */
interface TruthInMemory {
  readonly cache: object;
  readonly file: string;
  readonly scanned: Scanned;
  readonly ans: number;
  readonly hash: number;
  readonly mask: number;
  readonly ranks: number;
  /** Where a result file goes (after all of the above). */
  readonly end: number;
}

let truthInMemory: TruthInMemory | undefined;

/**
 * The score of `resultFile` against `truthFile` with both in the scanner's memory, the truth first:
 * the truth's answers and the result's ranks are read by the scanner's `truth` and `match`, no
 * string made (a JavaScript walk of the tables was ~2 ms of a 30 ms process on a test file).
 * undefined when a file is not exactly a result file or the truth has a problem; null when the
 * Map walk must do it (no WebAssembly, a file not in the plain spelling, a result dialog the truth
 * has not), with the truth's answers then in `truths`.
 */
function scoreInMemory(resultFile: string, truthFile: string, nb: number, ks: readonly number[], truths: Map<string, ReadonlyMap<string, string> | undefined>): QuickScore | undefined | null {
  const wasm = scannerInstance();
  if (wasm === null || !Number.isInteger(nb) || nb < 1) return null;
  let t = truthInMemory?.cache === truths && truthInMemory.file === truthFile ? truthInMemory : undefined;
  if (t === undefined) {
    truthInMemory = undefined;
    const truth = readForScoring(truthFile);
    if (truth === undefined || !('scanned' in truth)) {
      truths.set(truthFile, truth === undefined ? undefined : scanTruth(truth.text));
      return null;
    }
    const { entries, tableEnd } = truth.scanned;
    let slots = 2;
    while (slots < 2 * entries) slots *= 2;
    const ans = align8(tableEnd);
    const hash = ans + 16 * entries;
    const ranks = hash + 4 * slots;
    const end = align8(ranks + 4 * entries);
    reserve(wasm, end);
    new Uint8Array(wasm.memory.buffer, hash, 4 * slots).fill(0);
    if (wasm.truth(truth.scanned.out, entries, hash, slots - 1, ans) < 0) {
      truths.set(truthFile, undefined);
      return undefined;
    }
    t = truthInMemory = { cache: truths, file: truthFile, scanned: truth.scanned, ans, hash, mask: slots - 1, ranks, end };
  }
  const result = readForScoring(resultFile, t.end);
  if (result === undefined) return undefined;
  if ('scanned' in result) {
    const ranks = new Int32Array(wasm.memory.buffer, t.ranks, t.scanned.entries).fill(0);
    const duplicated = wasm.match(result.scanned.out, result.scanned.entries, Math.min(nb, MAX_RANK + 1), t.hash, t.mask, t.ans, t.ranks);
    if (duplicated >= 0) return ks.every((k) => (k | 0) === k) ? tallied(wasm, t.ranks, ranks.length, result.scanned.tableEnd, duplicated, ks) : scoreInOrder(ranks, -1, duplicated, ks);
  }
  const answers = tableTruth(tableOf(t.scanned));
  truths.set(truthFile, answers);
  const ranks = answers === undefined ? undefined : 'scanned' in result ? tableRanks(tableOf(result.scanned), answers, nb) : scanAnswerRanks(result.text, answers, nb);
  return ranks === undefined || answers === undefined ? undefined : scoreOfRanks(ranks, answers, ks);
}

/**
 * The score of `resultFile` against `truthFile` when both are exactly result files in ASCII and
 * every truth entry has one rank-1 candidate and its own dialog_id; undefined otherwise, for the
 * checking readers. `truths` caches the truth files already read (one answers file for many results).
 */
export function scoreFilesQuickly(resultFile: string, truthFile: string, nb: number, ks: readonly number[], truths: Map<string, ReadonlyMap<string, string> | undefined>): QuickScore | undefined {
  if (!truths.has(truthFile)) {
    const quick = scoreInMemory(resultFile, truthFile, nb, ks, truths);
    if (quick !== null) return quick;
  }
  // the truth's answers in the Map, the result where the truth's bytes were
  truthInMemory = undefined;
  if (!truths.has(truthFile)) {
    const truth = readForScoring(truthFile);
    truths.set(truthFile, truth === undefined ? undefined : 'scanned' in truth ? tableTruth(tableOf(truth.scanned)) : scanTruth(truth.text));
  }
  const answers = truths.get(truthFile);
  if (answers === undefined) return undefined;
  const result = readForScoring(resultFile);
  const ranks = result === undefined ? undefined : 'scanned' in result ? tableRanks(tableOf(result.scanned), answers, nb) : scanAnswerRanks(result.text, answers, nb);
  return ranks === undefined ? undefined : scoreOfRanks(ranks, answers, ks);
}
