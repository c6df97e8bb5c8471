/**
 * The transcript file of `evaluateRun` (`transcripts`, `resume`; the CLI's `evaluate --transcripts` /
 * `--resume`) and of `serve --env`: one JSON record per line. During a
 * run each record is appended (one write per episode, as soon as it ends) so that a run killed
 * half-way (`kill -9`, a crash, a spent failure budget) keeps every finished episode; `resume`
 * reads them back — a last line cut by the kill is dropped and its episode played again — and
 * appends the rest. Nothing in the file changes before the first new record is appended: a resume
 * that is refused (another environment, other options, a record out of the run) leaves the file as
 * it was, its cut last line included. A finished run rewrites the file in episode order (atomically), so an
 * interrupted-then-resumed run and an uninterrupted one leave the same bytes.
 */
import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, FormatError } from '../core/errors.js';
import { makeFolders, writeFileAtomic } from '../core/files.js';
import type { EpisodeRecord } from '../evaluation/evaluate.js';
import { costOf, type Prices } from '../llm/client/usage.js';

/** A record's transcript line: the record, and its `cost` when prices are given and it has `usage`. */
export function transcriptLine(rec: EpisodeRecord, prices: Prices | undefined): string {
  const cost = rec.usage ? costOf(rec.usage, prices) : undefined;
  return JSON.stringify(cost !== undefined ? { ...rec, cost } : rec) + '\n';
}

/** Writes the whole transcript file in the records' order (atomically). */
export function writeTranscripts(file: string, records: readonly EpisodeRecord[], prices: Prices | undefined): void {
  writeFileAtomic(file, records.map((r) => transcriptLine(r, prices)).join(''));
}

/** The finished records of a transcript file and the byte length of its finished lines (a last line the interruption left unfinished is not read). */
function readFinished(file: string): { records: EpisodeRecord[]; bytes: number } {
  if (!existsSync(file)) throw new ConfigError(`${file}: no such file`, { option: 'resume' });
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
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
  return { records: out, bytes: Buffer.byteLength(text.slice(0, end)) };
}

/** The transcript file of a running `evaluate` (module description). */
export class TranscriptLog {
  /** The records already in the file (`resume`), else none. */
  readonly records: readonly EpisodeRecord[];
  private fd: number | undefined;
  /** Resuming: the length of the file's finished lines, to which it is cut before the first append. */
  private readonly keep: number | undefined;
  private closed = false;

  constructor(
    readonly file: string,
    resume: boolean,
    private readonly prices: Prices | undefined,
  ) {
    if (resume) {
      const { records, bytes } = readFinished(file);
      this.records = records;
      this.keep = bytes;
    } else {
      this.records = [];
      makeFolders(dirname(file)); // as every other output: --transcripts runs/t5.jsonl makes runs/
      this.fd = openSync(file, 'w');
    }
  }

  /** Appends one record (one write); resuming, the first cuts the file's unfinished last line. */
  append(rec: EpisodeRecord): void {
    if (this.closed) return;
    if (this.fd === undefined) {
      if (this.keep !== undefined) truncateSync(this.file, this.keep);
      this.fd = openSync(this.file, 'a');
    }
    writeSync(this.fd, transcriptLine(rec, this.prices));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.closed = true;
  }
}
