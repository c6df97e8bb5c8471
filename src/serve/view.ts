/**
 * `dialogym view [folder]`: a local page to look at what runs wrote into a folder — reports (the
 * Markdown tables of `benchmark`, `infobot table`, `airdialogue tables`, with the SVG charts beside
 * them; learning curves) and `evaluate --transcripts` runs (their summary, the episodes filtered by
 * environment, outcome, failure reason and text, each episode turn by turn with its KB lines and,
 * where recorded, how the simulated user read each agent turn; two runs side by side).
 *
 *   GET /api/view                              {folder, runs:[{id, path, envs, episodes, bytes}], reports:[{id, path, title, svg?}], images:[…]}
 *   GET /api/view/runs/:id                     {id, path, summaries:[EvaluationSummary per env], failures, envs}
 *   GET /api/view/runs/:id/episodes?env=&agent=&outcome=success|failure&failure=&q=&offset=&limit=
 *                                              {total, matched, offset, items:[{i, env, episode, trial, seed, success, reward, turns, failure}]}
 *   GET /api/view/runs/:id/episodes/:i         {i, record, turns:[{speaker, text, read?}], goal?, detail?, failureTurn?}
 *   GET /api/view/compare?a=&b=                {a, b: summaries, counts:{both, onlyA, onlyB, neither, unmatched}, differing:[…]}
 *   GET /api/view/reports/:id                  {id, path, markdown}
 *   GET /view/files/:id                        the SVG (image/svg+xml, no script)
 *
 * Read only: files are found by a scan of the folder (ids index that list, never paths), read when
 * asked and kept while their size and time are unchanged. Every error is JSON `{error}`.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp, gracefulClose, HTTP_DEFAULTS, internalErrorText, noSniffNoStore, type CloseReport } from './http.js';
import { summarizeEpisodes, type EpisodeRecord, type EvaluationSummary } from '../evaluation/evaluate.js';
import { defaultWebDir } from './server.js';

/** Options of the view server. */
export interface ViewOptions {
  /** Folder of the web page (default: the package's `src/serve/web`). */
  readonly webDir?: string;
  /** How deep the scan goes below the folder (default 4). */
  readonly maxDepth?: number;
  /** Most files the scan looks at (default 5,000). */
  readonly maxFiles?: number;
  /** A line per unexpected server error (default: stderr). */
  readonly logError?: (line: string) => void;
}

/** A run: one `evaluate --transcripts` file. */
export interface ViewRun {
  readonly id: number;
  readonly path: string;
  readonly bytes: number;
}

/** A report: a Markdown file, and the SVG chart of the same name beside it. */
export interface ViewReport {
  readonly id: number;
  readonly path: string;
  readonly title: string;
  /** Id of the SVG of the same name (in `images`), when there is one. */
  readonly svg?: number;
}

/** What the scan of a folder found. */
export interface ViewFolder {
  readonly folder: string;
  readonly runs: readonly ViewRun[];
  readonly reports: readonly ViewReport[];
  /** Every SVG (charts, learning curves): paths. */
  readonly images: readonly string[];
}

/** Keys every transcript line of `evaluate --transcripts` has. */
const RUN_KEYS = ['env', 'episode', 'trial', 'success', 'actions'] as const;

/** The first line of a file (at most `max` bytes of it are read). */
function firstLine(path: string, max = 1 << 22): string {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.alloc(1 << 16);
    while (total < max) {
      const n = readSync(fd, buf, 0, buf.length, total);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(10);
      chunks.push(Buffer.from(buf.subarray(0, nl < 0 ? n : nl)));
      total += n;
      if (nl >= 0) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Whether the first line of a file is a transcript record of `evaluate --transcripts`. */
function isTranscript(path: string): boolean {
  try {
    const o = JSON.parse(firstLine(path)) as Record<string, unknown>;
    return o !== null && typeof o === 'object' && RUN_KEYS.every((k) => k in o);
  } catch {
    return false;
  }
}

/** The first heading of a Markdown text, else the file's name. */
function titleOf(md: string, path: string): string {
  const m = /^#{1,3}\s+(.+)$/m.exec(md);
  return m ? (m[1] as string).trim().slice(0, 160) : basename(path);
}

/** Scans `folder` for runs, reports and charts (sorted by path; hidden folders and node_modules skipped). */
export function scanViewFolder(folder: string, opts: ViewOptions = {}): ViewFolder {
  const maxDepth = opts.maxDepth ?? 4;
  const maxFiles = opts.maxFiles ?? 5000;
  const files: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (files.length >= maxFiles) return;
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (depth < maxDepth) walk(p, depth + 1);
      } else if (e.isFile()) files.push(p);
    }
  };
  walk(folder, 0);
  const rel = (p: string): string => relative(folder, p).split('\\').join('/');
  const runs: ViewRun[] = [];
  const images: string[] = [];
  const mds: string[] = [];
  for (const f of files) {
    const ext = extname(f).toLowerCase();
    if (ext === '.jsonl' && isTranscript(f)) runs.push({ id: runs.length, path: rel(f), bytes: statSync(f).size });
    else if (ext === '.svg') images.push(rel(f));
    else if (ext === '.md') mds.push(f);
  }
  const reports: ViewReport[] = mds.map((f, id) => {
    const svgPath = rel(f).replace(/\.md$/i, '.svg');
    const svg = images.indexOf(svgPath);
    const md = readFileSync(f, 'utf8');
    return { id, path: rel(f), title: titleOf(md, f), ...(svg >= 0 ? { svg } : {}) };
  });
  return { folder, runs, reports, images };
}

/** A transcript file read into records; a malformed line is an error naming the file and line. */
export function readTranscripts(path: string, name = path): EpisodeRecord[] {
  const out: EpisodeRecord[] = [];
  const text = readFileSync(path, 'utf8');
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    if (raw.trim() === '') continue;
    let o: unknown;
    try {
      o = JSON.parse(raw);
    } catch {
      throw new ViewError(422, `${name}:${line}: not a JSON line`);
    }
    if (o === null || typeof o !== 'object' || !RUN_KEYS.every((k) => k in (o as object))) throw new ViewError(422, `${name}:${line}: not an evaluate transcript record (needs ${RUN_KEYS.join(', ')})`);
    out.push(o as EpisodeRecord);
  }
  return out;
}

/** The summary of each environment of a run (records in file order, grouped by env). */
export function runSummaries(records: readonly EpisodeRecord[]): EvaluationSummary[] {
  const byEnv = new Map<string, EpisodeRecord[]>();
  for (const r of records) {
    const list = byEnv.get(r.env) ?? [];
    list.push(r);
    byEnv.set(r.env, list);
  }
  return [...byEnv].map(([env, recs]) => {
    const tasks = new Set(recs.map((r) => r.episode)).size;
    const trials = recs.reduce((m, r) => Math.max(m, r.trial + 1), 1);
    const seed = recs.reduce((m, r) => Math.min(m, r.seed - r.episode), Number.POSITIVE_INFINITY);
    return summarizeEpisodes({ env, episodes: tasks, trials, seed: Number.isFinite(seed) ? seed : 0 }, recs);
  });
}

/** One line of an episode, for reading: who spoke, what, and how the user read it (agent turns). */
export interface ViewTurn {
  readonly speaker: string;
  readonly text: string;
  readonly read?: string;
  /** Index of the agent turn (0-based) this line is, for agent lines. */
  readonly agentTurn?: number;
}

interface Turnish {
  readonly speaker?: unknown;
  readonly text?: unknown;
}

/** An action as text: an utterance, `tool(arg=value, …)`, or its JSON. */
export function actionText(a: unknown): string {
  if (typeof a === 'string') return a;
  if (a !== null && typeof a === 'object') {
    const o = a as Record<string, unknown>;
    if (typeof o['utterance'] === 'string' && Object.keys(o).length === 1) return o['utterance'];
    if (typeof o['tool'] === 'string') {
      const args = o['arguments'] !== null && typeof o['arguments'] === 'object' ? Object.entries(o['arguments'] as Record<string, unknown>).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`) : [];
      return `${o['tool']}(${args.join(', ')})`;
    }
  }
  return JSON.stringify(a);
}

/** The reads of a record's agent turns, whatever the key (`reads`: one per agent turn). */
function readsOf(rec: Record<string, unknown>): (string | undefined)[] {
  const r = rec['reads'];
  return Array.isArray(r) ? r.map((x) => (typeof x === 'string' ? x : x === null || x === undefined ? undefined : JSON.stringify(x))) : [];
}

/**
 * The lines of an episode: the dialog the last observation holds (restaurant, DSTC6, AirDialogue:
 * `observation.history`, the agent's turns marked with how the user read them), and the agent's
 * actions that are not in it (tool calls that end an AirDialogue episode; every action where the
 * observation has no history, as in KB-InfoBot).
 */
export function episodeTurns(record: EpisodeRecord): ViewTurn[] {
  const rec = record as unknown as Record<string, unknown>;
  const reads = readsOf(rec);
  const actions = Array.isArray(rec['actions']) ? (rec['actions'] as unknown[]) : [];
  const obs = rec['observation'] as Record<string, unknown> | null | undefined;
  const history = obs && Array.isArray(obs['history']) ? (obs['history'] as Turnish[]) : undefined;
  const out: ViewTurn[] = [];
  if (history) {
    let k = 0;
    const said = new Set<string>();
    for (const t of history) {
      const speaker = typeof t.speaker === 'string' ? t.speaker : '?';
      const text = typeof t.text === 'string' ? t.text : JSON.stringify(t.text);
      if (speaker === 'bot') {
        const read = reads[k];
        out.push({ speaker: 'agent', text, agentTurn: k, ...(read !== undefined ? { read } : {}) });
        said.add(text);
        k++;
      } else out.push({ speaker, text });
    }
    // Actions beyond the dialog's bot turns (an AirDialogue decision, an action the env refused).
    for (let j = k; j < actions.length; j++) {
      const read = reads[j];
      out.push({ speaker: 'agent', text: actionText(actions[j]), agentTurn: j, ...(read !== undefined ? { read } : {}) });
    }
    return out;
  }
  actions.forEach((a, j) => {
    const read = reads[j];
    out.push({ speaker: 'agent', text: actionText(a), agentTurn: j, ...(read !== undefined ? { read } : {}) });
  });
  if (obs && typeof obs['utterance'] === 'string' && obs['utterance'] !== '') out.push({ speaker: 'user', text: obs['utterance'] });
  return out;
}

/** An HTTP error of the view API. */
export class ViewError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface CachedRun {
  readonly size: number;
  readonly mtimeMs: number;
  readonly records: EpisodeRecord[];
  /** Lower-case text of each episode (turns, failure, message), for the search. */
  readonly text: string[];
}

const intParam = (v: unknown, name: string, def: number, max: number): number => {
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0 || n > max) throw new ViewError(400, `${name} must be an integer from 0 to ${max}`);
  return n;
};

/** The routes of the view page and its API, over the scan of `folder` (re-scanned on every `GET /api/view`). */
export function registerViewRoutes(app: FastifyInstance, folder: string, opts: ViewOptions = {}): void {
  let scan = scanViewFolder(folder, opts);
  const cache = new Map<string, CachedRun>();
  const runOf = (id: string): { run: ViewRun; cached: CachedRun } => {
    const run = scan.runs[Number(id)];
    if (!/^\d+$/.test(id) || run === undefined) throw new ViewError(404, `no run ${id.slice(0, 20)} (GET /api/view lists them)`);
    const full = join(folder, run.path);
    let st;
    try {
      st = statSync(full);
    } catch {
      throw new ViewError(404, `${run.path}: gone since the folder was read`);
    }
    const hit = cache.get(full);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return { run, cached: hit };
    const records = readTranscripts(full, run.path);
    const text = records.map((r) => [...episodeTurns(r).map((t) => `${t.text} ${t.read ?? ''}`), r.failure ?? '', r.message ?? ''].join('\n').toLowerCase());
    const cached = { size: st.size, mtimeMs: st.mtimeMs, records, text };
    cache.set(full, cached);
    return { run, cached };
  };
  const light = (r: EpisodeRecord, i: number): Record<string, unknown> => ({ i, env: r.env, episode: r.episode, trial: r.trial, seed: r.seed, success: r.success, reward: r.reward, turns: r.turns, failure: r.failure });

  app.get('/api/view', async () => {
    scan = scanViewFolder(folder, opts);
    return {
      folder,
      runs: scan.runs.map((r) => {
        try {
          const { cached } = runOf(String(r.id));
          return { ...r, envs: [...new Set(cached.records.map((x) => x.env))], episodes: cached.records.length, success: cached.records.filter((x) => x.success).length / Math.max(1, cached.records.length) };
        } catch (e) {
          return { ...r, error: e instanceof Error ? e.message : String(e) };
        }
      }),
      reports: scan.reports,
      images: scan.images,
    };
  });
  app.get<{ Params: { id: string } }>('/api/view/runs/:id', async (req) => {
    const { run, cached } = runOf(req.params.id);
    const failures: Record<string, number> = {};
    for (const r of cached.records) if (!r.success && r.failure !== null) failures[r.failure] = (failures[r.failure] ?? 0) + 1;
    return { id: run.id, path: run.path, episodes: cached.records.length, envs: [...new Set(cached.records.map((r) => r.env))], agents: agentsOf(cached.records), failures, summaries: runSummaries(cached.records) };
  });
  app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>('/api/view/runs/:id/episodes', async (req) => {
    const { cached } = runOf(req.params.id);
    const q = req.query;
    const offset = intParam(q['offset'], 'offset', 0, 1e9);
    const limit = intParam(q['limit'], 'limit', 50, 1000);
    const outcome = q['outcome'] ?? '';
    if (!['', 'all', 'success', 'failure'].includes(outcome)) throw new ViewError(400, 'outcome must be success, failure or all');
    const needle = (q['q'] ?? '').trim().toLowerCase();
    const matched: number[] = [];
    cached.records.forEach((r, i) => {
      if (q['env'] && r.env !== q['env']) return;
      if (q['agent'] && agentOf(r) !== q['agent']) return;
      if (outcome === 'success' && !r.success) return;
      if (outcome === 'failure' && r.success) return;
      if (q['failure'] && r.failure !== q['failure']) return;
      if (needle !== '' && !(cached.text[i] as string).includes(needle)) return;
      matched.push(i);
    });
    return { total: cached.records.length, matched: matched.length, offset, items: matched.slice(offset, offset + limit).map((i) => light(cached.records[i] as EpisodeRecord, i)) };
  });
  app.get<{ Params: { id: string; i: string } }>('/api/view/runs/:id/episodes/:i', async (req) => {
    const { cached } = runOf(req.params.id);
    const i = Number(req.params.i);
    const rec = /^\d+$/.test(req.params.i) ? cached.records[i] : undefined;
    if (rec === undefined) throw new ViewError(404, `no episode ${req.params.i.slice(0, 20)} in this run (0 … ${cached.records.length - 1})`);
    const r = rec as unknown as Record<string, unknown>;
    return { i, record: rec, turns: episodeTurns(rec), ...(r['goal'] !== undefined ? { goal: r['goal'] } : {}), ...(r['detail'] !== undefined ? { detail: r['detail'] } : {}), ...(typeof r['failureTurn'] === 'number' ? { failureTurn: r['failureTurn'] } : {}) };
  });
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/view/compare', async (req) => {
    const a = runOf(req.query['a'] ?? '');
    const b = runOf(req.query['b'] ?? '');
    const key = (r: EpisodeRecord): string => `${r.env}\u0000${r.episode}\u0000${r.trial}`;
    const inB = new Map(b.cached.records.map((r, i) => [key(r), i] as const));
    const counts = { both: 0, onlyA: 0, onlyB: 0, neither: 0, unmatched: 0 };
    const differing: Record<string, unknown>[] = [];
    a.cached.records.forEach((ra, ia) => {
      const ib = inB.get(key(ra));
      if (ib === undefined) {
        counts.unmatched++;
        return;
      }
      const rb = b.cached.records[ib] as EpisodeRecord;
      if (ra.success && rb.success) counts.both++;
      else if (ra.success) counts.onlyA++;
      else if (rb.success) counts.onlyB++;
      else counts.neither++;
      if (ra.success !== rb.success || ra.failure !== rb.failure) differing.push({ env: ra.env, episode: ra.episode, trial: ra.trial, a: light(ra, ia), b: light(rb, ib) });
    });
    return { a: { id: a.run.id, path: a.run.path, summaries: runSummaries(a.cached.records) }, b: { id: b.run.id, path: b.run.path, summaries: runSummaries(b.cached.records) }, counts, differing: differing.slice(0, 1000), differingTotal: differing.length };
  });
  app.get<{ Params: { id: string } }>('/api/view/reports/:id', async (req) => {
    const rep = /^\d+$/.test(req.params.id) ? scan.reports[Number(req.params.id)] : undefined;
    if (rep === undefined) throw new ViewError(404, `no report ${req.params.id.slice(0, 20)} (GET /api/view lists them)`);
    try {
      return { ...rep, markdown: readFileSync(join(folder, rep.path), 'utf8') };
    } catch {
      throw new ViewError(404, `${rep.path}: gone since the folder was read`);
    }
  });
  app.get<{ Params: { id: string } }>('/view/files/:id', async (req, reply) => {
    const path = /^\d+$/.test(req.params.id) ? scan.images[Number(req.params.id)] : undefined;
    if (path === undefined) throw new ViewError(404, `no image ${req.params.id.slice(0, 20)}`);
    let body: Buffer;
    try {
      body = readFileSync(join(folder, path));
    } catch {
      throw new ViewError(404, `${path}: gone since the folder was read`);
    }
    // An SVG of the folder is data, never code: no script runs in it, even opened on its own.
    return reply.type('image/svg+xml').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:").send(body);
  });
}

/** The files of the page. */
const VIEW_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'view.html', type: 'text/html; charset=utf-8' },
  '/view.js': { file: 'view.js', type: 'text/javascript; charset=utf-8' },
  '/view.css': { file: 'view.css', type: 'text/css; charset=utf-8' },
};

/** A running view server. */
export interface ViewServer {
  readonly app: FastifyInstance;
  /** Starts listening; resolves to the base URL. */
  listen(port: number, host: string): Promise<string>;
  /** Stops as the other servers do (`gracefulClose`: requests in flight get `graceMs`). */
  close(graceMs?: number, signal?: AbortSignal): Promise<CloseReport>;
}

/** The agent a record names (a study's transcripts carry `agent`), or undefined. */
function agentOf(r: EpisodeRecord): string | undefined {
  const a = (r as unknown as { agent?: unknown }).agent;
  return typeof a === 'string' ? a : undefined;
}

/** The agents a run's records name, in order of first appearance (empty for a run of one unnamed agent). */
function agentsOf(records: readonly EpisodeRecord[]): string[] {
  return [...new Set(records.map(agentOf).filter((a): a is string => a !== undefined))];
}

/** The view server of `folder` (the CLI checks that the folder exists first). Read only: GET routes, no body. */
export function createViewServer(folder: string, opts: ViewOptions & { readonly requestTimeoutMs?: number } = {}): ViewServer {
  const logError = opts.logError ?? ((l: string) => process.stderr.write(l + '\n'));
  const app = createApp({ bodyLimit: 1024, requestTimeoutMs: opts.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs }, (req) => `not found: ${req.method} ${req.url.split('?')[0]?.slice(0, 200)}`);
  app.setErrorHandler((err, req, reply) => {
    const e = err as { statusCode?: unknown; message?: unknown };
    const status = err instanceof ViewError ? err.status : typeof e.statusCode === 'number' && e.statusCode < 500 ? e.statusCode : 500;
    if (status >= 500) logError(internalErrorText('view', err, req));
    void reply.code(status).type('application/json; charset=utf-8').send({ error: status >= 500 ? 'internal error' : String(e.message ?? 'bad request').split('\n')[0] });
  });
  noSniffNoStore(app);
  const webDir = opts.webDir ?? defaultWebDir();
  for (const [path, { file, type }] of Object.entries(VIEW_FILES)) {
    const f = join(webDir, file);
    if (!existsSync(f)) continue;
    const body = readFileSync(f);
    app.get(path, async (_req, reply) =>
      reply.type(type).header('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'").send(body),
    );
  }
  registerViewRoutes(app, folder, opts);
  return {
    app,
    async listen(port, host) {
      return app.listen({ port, host });
    },
    close: (graceMs, signal) => gracefulClose(app, graceMs, signal),
  };
}
