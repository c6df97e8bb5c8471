/**
 * Forged model files for the tests: the bytes of a real `.dgm` file with its JSON header and/or
 * its tensor data edited, re-laid out (header length, padding) and given a valid CRC-32 again —
 * what a forger does, so that the reader's checks behind the checksum are what refuses them.
 */
import { crc32 } from 'node:zlib';

/** The parts of a model file a forgery edits: its header (parsed JSON) and a copy of its tensor data. */
export interface ModelFileParts {
  header: Record<string, unknown> & { tensors: Record<string, unknown>[]; dataBytes: number };
  data: Buffer;
}

/** The model file's header and tensor data, copied out of `buf` (a well-formed `.dgm` file). */
export function modelFileParts(buf: Buffer): ModelFileParts {
  const hlen = buf.readUInt32LE(12);
  const dataStart = 20 + hlen + ((4 - ((20 + hlen) % 4)) % 4);
  return { header: JSON.parse(buf.toString('utf8', 20, 20 + hlen)) as ModelFileParts['header'], data: Buffer.from(buf.subarray(dataStart)) };
}

/** Bytes of a model file holding `parts` (magic and version of `buf`), with its checksum recomputed. */
export function assembleModelFile(buf: Buffer, parts: ModelFileParts): Buffer {
  const h = Buffer.from(JSON.stringify(parts.header), 'utf8');
  const pad = (4 - ((20 + h.length) % 4)) % 4;
  const out = Buffer.concat([buf.subarray(0, 20), h, Buffer.alloc(pad), parts.data]);
  out.writeUInt32LE(h.length, 12);
  out.writeUInt32LE(crc32(out.subarray(20)), 16);
  return out;
}

/** `buf` with `edit` applied to its header and data, and a valid checksum: a forged model file. */
export function forgeModelFile(buf: Buffer, edit: (parts: ModelFileParts) => void): Buffer {
  const parts = modelFileParts(buf);
  edit(parts);
  return assembleModelFile(buf, parts);
}

/** Overwrites every float32 of tensor `index` in `parts.data` with `value` (NaN by default). */
export function fillTensor(parts: ModelFileParts, index: number, value = Number.NaN): void {
  const t = parts.header.tensors[index] as { offset: number; length: number };
  for (let k = 0; k < t.length; k++) parts.data.writeFloatLE(value, t.offset + 4 * k);
}
