/**
 * Versioned binary model files (`*.dgm`):
 *
 *   bytes 0–7   magic `DIALOGYM`
 *   bytes 8–11  format version (u32 LE)
 *   bytes 12–15 header length H in bytes (u32 LE)
 *   bytes 16–19 CRC-32 of every byte from offset 20 to the end (u32 LE)
 *   bytes 20–   header: UTF-8 JSON {model, meta, tensors:[{name, shape, offset, length}], dataBytes}
 *   then zero padding to a multiple of 4, then the tensors as little-endian float32.
 *
 * Tensors are stored back to back in header order: the first at offset 0, each next one where the
 * previous ends, the last ending at `dataBytes`; every value is finite.
 *
 * Files are written atomically (temp file + rename). Reading checks magic, version, size and
 * checksum, so a corrupt, truncated or wrong-version file gives one clear ModelFileError. A forger
 * can recompute the checksum, so the reader also checks what the checksum cannot vouch for: the
 * header's types (its JSON schema), each tensor's region (no overlap, alias, gap or byte outside
 * the data) and its values (no NaN or ±Infinity), each refused in one line naming the tensor
 * (`m.dgm: tensor "A" (index 0): 12 non-finite values (first at [0]: NaN)`).
 */
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { DialogymError, ModelFileError } from '../core/errors.js';
import { writeFileAtomic } from '../core/files.js';
import { checkSchema, tooDeepAt } from './schema.js';

export const MODEL_FILE_MAGIC = 'DIALOGYM';
export const MODEL_FILE_VERSION = 1;
const PREFIX = 20;

/**
 * A named float32 tensor stored in a model file. `data` holds the values in row-major order;
 * its length must equal the product of `shape`.
 *
 * @example
 * ```ts
 * import type { ModelTensor } from 'dialogym';
 * const w: ModelTensor = { name: 'W', shape: [2, 3], data: new Float32Array(6) };
 * ```
 */
export interface ModelTensor {
  /** Tensor name, unique within the file (e.g. `A`, `W`). */
  readonly name: string;
  /** Dimensions; `[]` is a scalar. */
  readonly shape: readonly number[];
  /** The values, row-major. */
  readonly data: Float32Array;
}

/**
 * What a model file holds: the model's registry name, JSON metadata and its weight tensors.
 *
 * @example
 * ```ts
 * import type { ModelFileContent } from 'dialogym';
 * const content: ModelFileContent = {
 *   model: 'my-ranker',
 *   meta: { vocab: ['hello', 'bye'] },
 *   tensors: [{ name: 'W', shape: [2], data: new Float32Array([0.5, -1]) }],
 * };
 * ```
 */
export interface ModelFileContent {
  /** Model kind, e.g. `memn2n`. */
  readonly model: string;
  /** JSON-serialisable metadata (options, vocabulary, …). */
  readonly meta: unknown;
  /** The weights, in the order they are stored. */
  readonly tensors: readonly ModelTensor[];
  /**
   * True for the best-so-far weights that `dialogym train` writes while it runs: a checkpoint of
   * an unfinished run, which `eval` refuses unless `--allow-checkpoint`. Absent in finished models.
   */
  readonly checkpoint?: boolean;
  /**
   * The candidate responses the model was trained to rank (what `dialogym train --candidates`
   * read), so that `eval`, `chat` and `serve` need no `--candidates` again. Absent in files
   * written without them (and in files of earlier versions), which still load.
   */
  readonly candidates?: readonly string[];
}

interface HeaderTensor {
  name: string;
  shape: number[];
  offset: number;
  length: number;
}

/** How errors name a tensor: `tensor "A" (index 0)`. */
function tensorLabel(name: string, index: number): string {
  return `tensor ${JSON.stringify(name)} (index ${index})`;
}

/**
 * Why a tensor's values cannot be weights (`12 non-finite values of 60 (value 0 is NaN)`), or
 * undefined when every value is finite. One pass, no allocation (`v - v` is 0 for finite v only).
 */
function nonFiniteIssue(data: Float32Array): string | undefined {
  let count = 0;
  let first = -1;
  for (let k = 0; k < data.length; k++) {
    const v = data[k] as number;
    if (v - v !== 0 && count++ === 0) first = k;
  }
  return count === 0 ? undefined : `${count} non-finite value${count === 1 ? '' : 's'} of ${data.length} (value ${first} is ${String(data[first])})`;
}

/**
 * Why the tensors' regions break the layout the writer produces (back to back in header order,
 * from offset 0 to `dataBytes`): a region outside the data, aliasing or overlapping another one,
 * a gap before it, or data after the last tensor that belongs to none. Undefined when they fit.
 * Offsets are multiples of 4 already (the header schema). O(tensors) unless a region is wrong.
 */
function regionIssue(tensors: readonly HeaderTensor[], dataBytes: number): string | undefined {
  const span = (t: HeaderTensor): [number, number] => [t.offset, t.offset + t.length * 4];
  let expected = 0;
  for (let i = 0; i < tensors.length; i++) {
    const t = tensors[i] as HeaderTensor;
    const [start, end] = span(t);
    const label = tensorLabel(t.name, i);
    if (end > dataBytes) return `${label}: bytes ${start}–${end} lie outside the ${dataBytes} bytes of tensor data`;
    if (start > expected) return `${label}: starts at byte ${start}, leaving bytes ${expected}–${start} to no tensor (tensors are stored back to back)`;
    if (start < expected) {
      // Every earlier region is in place ([0, expected) back to back): this one reuses some of their bytes.
      for (let j = 0; j < i; j++) {
        const o = tensors[j] as HeaderTensor;
        const [os, oe] = span(o);
        if (start === os && start < end) return `${label}: bytes ${start}–${end} alias the weights of ${tensorLabel(o.name, j)} (same offset)`;
        if (start < oe && os < Math.max(end, start + 1)) return `${label}: bytes ${start}–${end} overlap ${tensorLabel(o.name, j)} (bytes ${os}–${oe})`;
      }
      return `${label}: starts at byte ${start}, before the end of the previous tensor (byte ${expected})`;
    }
    expected = end;
  }
  if (expected < dataBytes) return `bytes ${expected}–${dataBytes} of the tensor data belong to no tensor`;
  return undefined;
}

/**
 * Encodes a model as the bytes of a `.dgm` file (format described in this module: magic,
 * version, CRC-32, JSON header, little-endian float32 tensors). Throws a DialogymError when a
 * tensor's `data` length does not match its `shape` or holds a NaN or ±Infinity (such a file
 * would be refused when read).
 *
 * @example
 * ```ts
 * import { encodeModelFile, decodeModelFile } from 'dialogym';
 * const bytes = encodeModelFile({ model: 'demo', meta: {}, tensors: [{ name: 'W', shape: [2], data: new Float32Array([1, 2]) }] });
 * decodeModelFile(bytes).tensors[0]?.data; // Float32Array [1, 2]
 * ```
 */
export function encodeModelFile(c: ModelFileContent): Buffer {
  let offset = 0;
  const ht: HeaderTensor[] = c.tensors.map((t, i) => {
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.data.length) throw new DialogymError(`${tensorLabel(t.name, i)}: shape ${t.shape.join('×')} does not match ${t.data.length} values`);
    const bad = nonFiniteIssue(t.data);
    if (bad !== undefined) throw new DialogymError(`${tensorLabel(t.name, i)}: ${bad}; a model file holds finite weights only`);
    const h = { name: t.name, shape: [...t.shape], offset, length: n };
    offset += n * 4;
    return h;
  });
  const h: Record<string, unknown> = { model: c.model, meta: c.meta, tensors: ht, dataBytes: offset };
  if (c.checkpoint === true) h.checkpoint = true;
  if (c.candidates !== undefined) h.candidates = [...c.candidates];
  const header = Buffer.from(JSON.stringify(h), 'utf8');
  const pad = (4 - ((PREFIX + header.length) % 4)) % 4;
  const buf = Buffer.alloc(PREFIX + header.length + pad + offset);
  buf.write(MODEL_FILE_MAGIC, 0, 'latin1');
  buf.writeUInt32LE(MODEL_FILE_VERSION, 8);
  buf.writeUInt32LE(header.length, 12);
  header.copy(buf, PREFIX);
  const dataStart = PREFIX + header.length + pad;
  c.tensors.forEach((t, i) => {
    const h = ht[i] as HeaderTensor;
    const dst = new Float32Array(buf.buffer, buf.byteOffset + dataStart + h.offset, h.length);
    dst.set(t.data); // platform order; every supported platform (x64, arm64) is little-endian
  });
  buf.writeUInt32LE(crc32(buf.subarray(PREFIX)), 16);
  return buf;
}

/**
 * Decodes the bytes of a `.dgm` model file; `file` only names it in error messages. Checks
 * magic, version, sizes and checksum: a bad, truncated, corrupt or wrong-version buffer throws a
 * ModelFileError (`<file>: <reason>`); so do tensors whose regions overlap, alias each other,
 * leave gaps or fall outside the data, and NaN or ±Infinity weights, even under a valid
 * checksum. Tensors are copied, so they do not alias `buf`.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { decodeModelFile } from 'dialogym';
 * const { model, tensors } = decodeModelFile(readFileSync('model.dgm'), 'model.dgm');
 * ```
 */
export function decodeModelFile(buf: Buffer, file = '<model>'): ModelFileContent {
  const fail = (reason: string): never => {
    throw new ModelFileError(`${file}: ${reason}`);
  };
  if (buf.length < PREFIX || buf.toString('latin1', 0, 8) !== MODEL_FILE_MAGIC) {
    fail(buf.length === 0 ? 'empty file, not a dialogym model file' : 'not a dialogym model file (bad magic bytes)');
  }
  const version = buf.readUInt32LE(8);
  if (version !== MODEL_FILE_VERSION) fail(`model file format version ${version} is not supported (this dialogym reads version ${MODEL_FILE_VERSION})`);
  const hlen = buf.readUInt32LE(12);
  if (PREFIX + hlen > buf.length) fail(`truncated model file (header needs ${PREFIX + hlen} bytes, file has ${buf.length})`);
  const headerText = buf.toString('utf8', PREFIX, PREFIX + hlen);
  let parsed: unknown;
  try {
    if (tooDeepAt(headerText) >= 0) throw new RangeError('too deep');
    parsed = JSON.parse(headerText) as unknown;
  } catch {
    // A damaged header is reported as corruption when the checksum disagrees, else as a bad header.
    if (crc32(buf.subarray(PREFIX)) !== buf.readUInt32LE(16)) fail('corrupt model file (checksum mismatch)');
    return fail('corrupt model file (unreadable header)');
  }
  // Types, ranges and alignment of every header field (schemas/model-file-header.schema.json).
  const issue = checkSchema('model-file-header', parsed);
  if (issue) fail(`corrupt model file (header: ${issue.reason})`);
  const header = parsed as { model: string; meta: unknown; tensors: HeaderTensor[]; dataBytes: number; checkpoint?: boolean; candidates?: string[] };
  const dataBytes = header.dataBytes;
  const pad = (4 - ((PREFIX + hlen) % 4)) % 4;
  const dataStart = PREFIX + hlen + pad;
  const expected = dataStart + dataBytes;
  if (buf.length < expected) fail(`truncated model file (expected ${expected} bytes, got ${buf.length})`);
  if (buf.length > expected) fail(`corrupt model file (${buf.length - expected} unexpected bytes after the weights)`);
  if (crc32(buf.subarray(PREFIX)) !== buf.readUInt32LE(16)) fail('corrupt model file (checksum mismatch)');
  // What the checksum cannot vouch for (a forger recomputes it), before anything is allocated:
  // each tensor's length matches its shape, its name is its own, and the regions lie back to back.
  const names = new Map<string, number>();
  header.tensors.forEach((t, i) => {
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.length) fail(`${tensorLabel(t.name, i)}: length ${t.length} does not match shape ${t.shape.join('×') || 'scalar'} = ${n}`);
    const other = names.get(t.name);
    if (other !== undefined) fail(`${tensorLabel(t.name, i)}: name repeated (index ${other} has it too)`);
    names.set(t.name, i);
  });
  const region = regionIssue(header.tensors, dataBytes);
  if (region !== undefined) fail(region);
  const tensors: ModelTensor[] = header.tensors.map((t, i) => {
    const data = new Float32Array(t.length);
    new Uint8Array(data.buffer).set(buf.subarray(dataStart + t.offset, dataStart + t.offset + t.length * 4)); // one copy, any alignment of buf
    const bad = nonFiniteIssue(data);
    if (bad !== undefined) fail(`${tensorLabel(t.name, i)}: ${bad}`);
    return { name: t.name, shape: t.shape, data };
  });
  return {
    model: header.model,
    meta: header.meta,
    tensors,
    ...(header.checkpoint === true ? { checkpoint: true } : {}),
    ...(header.candidates !== undefined ? { candidates: header.candidates } : {}),
  };
}

/**
 * Writes a model file atomically (temp file + rename; parent folders are created). Throws a
 * DialogymError naming the file on a tensor whose data does not match its shape or holds NaN or
 * ±Infinity (nothing is written then); file-system errors pass through.
 *
 * @example
 * ```ts
 * import { writeModelFile, readModelFile } from 'dialogym';
 * writeModelFile('out/demo.dgm', { model: 'demo', meta: { dim: 2 }, tensors: [{ name: 'W', shape: [2], data: new Float32Array([1, 2]) }] });
 * readModelFile('out/demo.dgm').meta; // { dim: 2 }
 * ```
 */
export function writeModelFile(file: string, c: ModelFileContent): void {
  let bytes: Buffer;
  try {
    bytes = encodeModelFile(c);
  } catch (e) {
    throw e instanceof DialogymError ? new DialogymError(`${file}: ${e.message}`, { cause: e }) : e;
  }
  writeFileAtomic(file, bytes);
}

/**
 * Reads and decodes a `.dgm` model file. A missing or unreadable file, or bytes that do not
 * decode (see `decodeModelFile`), throw a ModelFileError naming the file. To get a working
 * model rather than its raw content, use `loadModel`.
 *
 * @example
 * ```ts
 * import { readModelFile } from 'dialogym';
 * const { model, meta, tensors } = readModelFile('models/memn2n-task1.dgm');
 * console.log(model, tensors.map((t) => `${t.name} ${t.shape.join('x')}`));
 * ```
 */
export function readModelFile(file: string): ModelFileContent {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ModelFileError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a model file' : `cannot read (${code ?? String(e)})`}`);
  }
  return decodeModelFile(buf, file);
}

/** The tensor called `name`, checked against the expected shape. */
export function tensorOf(c: ModelFileContent, name: string, shape: readonly number[], file = '<model>'): Float32Array {
  const t = c.tensors.find((x) => x.name === name);
  if (!t) throw new ModelFileError(`${file}: corrupt model file (no tensor '${name}')`);
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    throw new ModelFileError(`${file}: corrupt model file (tensor '${name}' has shape ${t.shape.join('×')}, expected ${shape.join('×')})`);
  }
  return t.data;
}
