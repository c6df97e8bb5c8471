/**
 * `evaluate --transcripts` / `--resume`: the transcript file, one JSON record per line. During a
 * run each record is appended (one write per episode, as soon as it ends) so that a run killed
 * half-way (`kill -9`, a crash, a spent failure budget) keeps every finished episode; `--resume`
 * reads them back — a last line cut by the kill is dropped and its episode played again — and
 * appends the rest. A finished run rewrites the file in episode order (atomically), so an
 * interrupted-then-resumed run and an uninterrupted one leave the same bytes.
 */
import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { ConfigError, FormatError } from '../core/errors.js';
import { writeFileAtomic } from '../core/files.js';
import type { EpisodeRecord } from '../evaluation/evaluate.js';
import { costOf, type Prices } from '../llm/usage.js';

/** A record's transcript line: the record, and its `cost` when prices are given and it has `usage`. */
export function transcriptLine(rec: EpisodeRecord, prices: Prices | undefined): string {
  const cost = rec.usage ? costOf(rec.usage, prices) : undefined;
  return JSON.stringify(cost !== undefined ? { ...rec, cost } : rec) + '\n';
}

/** Writes the whole transcript file in the records' order (atomically). */
export function writeTranscripts(file: string, records: readonly EpisodeRecord[], prices: Prices | undefined): void {
  writeFileAtomic(file, records.map((r) => transcriptLine(r, prices)).join(''));
}

/** Reads the finished records of a transcript file, cutting a last line the interruption left unfinished. */
function readFinished(file: string): EpisodeRecord[] {
  if (!existsSync(file)) throw new ConfigError(`--resume: ${file}: no such file`);
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) truncateSync(file, Buffer.byteLength(text.slice(0, end)));
  const out: EpisodeRecord[] = [];
  text
    .slice(0, end)
    .split('\n')
    .forEach((line, i) => {
      if (line === '') return;
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        throw new FormatError(file, i + 1, 'not a transcript line (invalid JSON)');
      }
      const r = rec as Partial<EpisodeRecord> | null;
      if (r === null || typeof r !== 'object' || typeof r.env !== 'string' || typeof r.episode !== 'number' || typeof r.trial !== 'number' || typeof r.success !== 'boolean') throw new FormatError(file, i + 1, 'not a transcript line (want a record with env, episode, trial, success)');
      out.push(r as EpisodeRecord);
    });
  return out;
}

/** The transcript file of a running `evaluate` (module description). */
export class TranscriptLog {
  /** The records already in the file (`resume`), else none. */
  readonly records: readonly EpisodeRecord[];
  private fd: number | undefined;

  constructor(
    readonly file: string,
    resume: boolean,
    private readonly prices: Prices | undefined,
  ) {
    this.records = resume ? readFinished(file) : [];
    this.fd = openSync(file, resume ? 'a' : 'w');
  }

  /** Appends one record (one write). */
  append(rec: EpisodeRecord): void {
    if (this.fd !== undefined) writeSync(this.fd, transcriptLine(rec, this.prices));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
