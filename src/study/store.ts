/**
 * A study's store: one SQLite file (`study.sqlite` of the study folder, through `core/sqlite.ts`)
 * holding the participants, their sessions, each session's turns and the answers to the questions
 * after it — written as they happen, each change in its own transaction (WAL journal, synchronous
 * FULL): a crash or a restart loses no finished session, and a session interrupted mid-dialog stays
 * `open` until it is resumed or marked `abandoned`; an abandoned session is never counted, and its
 * place (its participant's session number, its assignment slot) goes to the next session.
 *
 * Assignment is random, balanced and blind: session slots 0, 1, 2, … are cut into blocks of as many
 * slots as there are agents, each block a permutation of the agents drawn from the study's seed
 * (`Rng.fork('block <b>')`: the same study seed gives the same sequence), and a new session takes
 * the lowest slot no open or finished session holds. So the agents' counts differ by at most one
 * whenever the sessions held are slots 0…n−1, and by at most one more per session still open.
 * The goal of a session is seeded by its slot.
 *
 * Two kinds of reads: participant-facing ones (`participant`, `sessionView`) never carry the agent
 * (not its label, nor its record); the admin's and the report's (`sessions`, `counts`) do. Codes and
 * the admin token are random (128 and 192 bits, `crypto.randomBytes`), given out once by
 * {@link createStudy}; the store keeps only their SHA-256.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError, DialogymError } from '../core/errors.js';
import { writeFileAtomic, makeFolders } from '../core/files.js';
import { createRng, hashString } from '../core/rng.js';
import { openSqlite, type SqliteDb, type SqliteDriverName } from '../core/sqlite.js';
import { MAX_ANSWER_CHARS, studyConfig, studyConfigJson, type AgentSpec, type StudyConfig } from './config.js';
import { pidAlive, pidStart } from '../core/pids.js';

/** The database file of a study folder. */
export const STUDY_DB = 'study.sqlite';
/** The configuration file of a study folder (as created: what the store holds too). */
export const STUDY_JSON = 'study.json';
/** Longest turn content stored, in characters of its JSON (a longer one is refused). */
export const MAX_TURN_CHARS = 64 * 1024;

/**
 * What {@link createStudy} gives out, once: the admin token and one code per participant.
 *
 * @example
 * ```ts
 * import { createStudy, studyConfig, type CreatedStudy } from 'dialogym';
 * const made: CreatedStudy = createStudy('s', studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft'], participants: 3 }));
 * for (const p of made.participants) console.log(p.label, p.code);
 * ```
 */
export interface CreatedStudy {
  readonly dir: string;
  readonly adminToken: string;
  readonly participants: ReadonlyArray<{ readonly label: string; readonly code: string }>;
}

/** A session's state. */
export type SessionStatus = 'open' | 'finished' | 'abandoned';

/** How a finished session ended, as the environment judged it. */
export interface SessionOutcome {
  readonly success: boolean;
  readonly reward: number;
  readonly turns: number;
  readonly failure: string | null;
}

/** A session as its participant may see it: never the agent. */
export interface SessionView {
  readonly id: number;
  /** 1-based among its participant's sessions (abandoned ones not counted). */
  readonly number: number;
  readonly status: SessionStatus;
  /** Seed of the session's episode (its goal). */
  readonly seed: number;
  readonly outcome?: SessionOutcome;
}

/** A participant as they may see themselves. */
export interface ParticipantView {
  readonly id: number;
  readonly label: string;
  readonly finished: number;
  readonly sessionsPerParticipant: number;
  /** Their open session, to resume. */
  readonly open?: SessionView;
}

/** One stored turn. */
export interface StoredTurn {
  readonly seq: number;
  readonly speaker: string;
  readonly content: unknown;
}

/** A session as the admin and the report see it: with its agent, participant and record. */
export interface AdminSession extends SessionView {
  readonly participant: string;
  readonly slot: number;
  readonly agent: string;
  readonly started: string;
  readonly ended: string | null;
  /** The episode's record (evaluate's EpisodeRecord) of a finished session. */
  readonly record?: Readonly<Record<string, unknown>>;
  readonly answers: Readonly<Record<string, string | number>>;
}

/** Live counts (the admin page). */
export interface StudyCounts {
  readonly participants: number;
  readonly open: number;
  readonly finished: number;
  readonly abandoned: number;
  /** Finished sessions per agent label. */
  readonly perAgent: Readonly<Record<string, number>>;
  readonly closed: boolean;
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const now = (): string => new Date().toISOString();

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS participants (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE, code_hash TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY,
  participant INTEGER NOT NULL REFERENCES participants(id),
  number INTEGER NOT NULL,
  slot INTEGER NOT NULL,
  agent TEXT NOT NULL,
  seed INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'finished', 'abandoned')),
  started TEXT NOT NULL,
  ended TEXT,
  success INTEGER,
  reward REAL,
  turns INTEGER,
  failure TEXT,
  record TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS sessions_slot ON sessions(slot) WHERE status != 'abandoned';
CREATE UNIQUE INDEX IF NOT EXISTS sessions_number ON sessions(participant, number) WHERE status != 'abandoned';
CREATE UNIQUE INDEX IF NOT EXISTS sessions_one_open ON sessions(participant) WHERE status = 'open';
CREATE TABLE IF NOT EXISTS turns (session INTEGER NOT NULL REFERENCES sessions(id), seq INTEGER NOT NULL, speaker TEXT NOT NULL, content TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (session, seq));
CREATE TABLE IF NOT EXISTS answers (session INTEGER NOT NULL REFERENCES sessions(id), question TEXT NOT NULL, value TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (session, question));
`;

function openDb(file: string, driver?: SqliteDriverName): SqliteDb {
  const db = openSqlite(file, driver ? { driver } : {});
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  return db;
}

/** A fresh random secret: `bytes` from the system's CSPRNG, base64url. */
function secret(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Creates a study folder `dir` (which must not exist, or be empty): `study.json` (the normalised
 * configuration) and `study.sqlite` with its participants, built in a temp folder beside it and
 * renamed into place, so `dir` either holds a whole study or nothing. Returns the admin token and
 * the participant codes: they are not stored (only their hashes are), so this is the one time they
 * are seen. The caller checks the configuration's environment and agents first.
 *
 * @example
 * ```ts
 * import { createStudy, studyConfig } from 'dialogym';
 * const made = createStudy('my-study', studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft', 'rule-soft'], participants: 2 }));
 * console.log(made.adminToken, made.participants); // [{ label: 'p1', code: '…' }, { label: 'p2', code: '…' }]
 * ```
 */
export function createStudy(dir: string, config: StudyConfig, o: { driver?: SqliteDriverName } = {}): CreatedStudy {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new ConfigError(`${dir}: is a file, not a folder; give a new folder for the study`);
    if (readdirSync(dir).length > 0) throw new ConfigError(`${dir}: already exists and is not empty; give a new folder for the study`);
  }
  const tmp = join(dirname(dir), `.${basename(dir)}.${process.pid}.${secret(6)}.tmp`);
  try {
    makeFolders(dirname(dir));
    mkdirSync(tmp);
  } catch (e) {
    throw new ConfigError(`${dir}: cannot create the study folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { cause: e });
  }
  try {
    const adminToken = secret(24);
    const participants = Array.from({ length: config.participants }, (_, i) => ({ label: `p${i + 1}`, code: secret(16) }));
    writeFileAtomic(join(tmp, STUDY_JSON), JSON.stringify(studyConfigJson(config), null, 2) + '\n');
    const db = openDb(join(tmp, STUDY_DB), o.driver);
    try {
      db.exec(SCHEMA);
      db.transaction(() => {
        const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
        meta.run(['version', '1']);
        meta.run(['config', JSON.stringify(studyConfigJson(config))]);
        meta.run(['admin', sha256(adminToken)]);
        meta.run(['closed', '0']);
        const ins = db.prepare('INSERT INTO participants (label, code_hash) VALUES (?, ?)');
        for (const p of participants) ins.run([p.label, sha256(p.code)]);
      });
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    renameSync(tmp, dir);
    return { dir, adminToken, participants };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

interface SessionRow {
  id: number;
  participant: number;
  number: number;
  slot: number;
  agent: string;
  seed: number;
  status: SessionStatus;
  started: string;
  ended: string | null;
  success: number | null;
  reward: number | null;
  turns: number | null;
  failure: string | null;
  record: string | null;
}

/** The `serving` row of a study's meta table: who holds the study (`StudyStore.claim`). */
interface ClaimRow {
  readonly pid: number;
  /** The process's start time (Linux: field 22 of /proc/<pid>/stat), to tell a reused pid; null where unknown. */
  readonly start: string | null;
  readonly what: string;
  readonly token: string;
  readonly port?: number;
}

/**
 * Is process `pid` alive, and the same process as the one that started at `start` (a pid reused by
 * another process after a `kill -9` is not)? A process of another user counts as alive.
 */
function processAlive(pid: number, start: string | null): boolean {
  if (!pidAlive(pid)) return false;
  const now = start === null ? null : pidStart(pid);
  return start === null || now === null || now === start;
}

function viewOf(r: SessionRow): SessionView {
  const outcome = r.status === 'finished' ? { outcome: { success: r.success === 1, reward: r.reward ?? 0, turns: r.turns ?? 0, failure: r.failure } } : {};
  return { id: r.id, number: r.number, status: r.status, seed: r.seed, ...outcome };
}

/**
 * An open study (module description). Synchronous: every method is one SQLite transaction at most.
 *
 * @example
 * ```ts
 * import { StudyStore } from 'dialogym';
 * const store = StudyStore.open('my-study');
 * console.log(store.counts());
 * store.close();
 * ```
 */
export class StudyStore {
  readonly config: StudyConfig;
  private readonly blocks = new Map<number, readonly number[]>();

  private constructor(
    readonly dir: string,
    private readonly db: SqliteDb,
  ) {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'config'").get();
    if (!row) throw new DialogymError(`${join(dir, STUDY_DB)}: not a study database (no configuration)`);
    this.config = studyConfig(JSON.parse(String(row['value'])), join(dir, STUDY_DB));
  }

  /** Opens the study in folder `dir`; a ConfigError when it holds none. */
  static open(dir: string, o: { driver?: SqliteDriverName } = {}): StudyStore {
    const file = join(dir, STUDY_DB);
    if (!existsSync(file)) throw new ConfigError(`${dir}: not a study folder (no ${STUDY_DB})`);
    let db: SqliteDb | undefined;
    try {
      db = openDb(file, o.driver);
      return new StudyStore(dir, db);
    } catch (e) {
      db?.close();
      // SQLite's own errors (not a database, locked, …) name no file: say which.
      if (e instanceof DialogymError) throw e;
      throw new DialogymError(`${file}: not a readable study database (${(e as Error).message})`, { cause: e });
    }
  }

  close(): void {
    this.db.close();
  }

  /** The agent of assignment slot `slot` (module description). */
  agentOfSlot(slot: number): AgentSpec {
    const n = this.config.agents.length;
    const b = Math.floor(slot / n);
    let perm = this.blocks.get(b);
    if (!perm) {
      perm = createRng(this.config.seed).fork(`block ${b}`).shuffle(Array.from({ length: n }, (_, i) => i));
      this.blocks.set(b, perm);
    }
    return this.config.agents[perm[slot % n] as number] as AgentSpec;
  }

  /** The seed of the episode of assignment slot `slot`. */
  seedOfSlot(slot: number): number {
    return hashString(`${this.config.seed} goal ${slot}`) & 0x7fffffff;
  }

  /** Whether `token` is the admin token (compared in constant time). */
  isAdmin(token: string): boolean {
    const want = Buffer.from(String(this.db.prepare("SELECT value FROM meta WHERE key = 'admin'").get()?.['value'] ?? ''), 'hex');
    const got = Buffer.from(sha256(token), 'hex');
    return want.length === got.length && timingSafeEqual(want, got);
  }

  /** Whether the study was closed (no new sessions). */
  get closed(): boolean {
    return this.db.prepare("SELECT value FROM meta WHERE key = 'closed'").get()?.['value'] === '1';
  }

  /** Closes the study: no session starts after this; open ones may still finish. */
  closeStudy(): void {
    this.db.prepare("UPDATE meta SET value = '1' WHERE key = 'closed'").run();
  }

  /** The participant holding `code`, as they may see themselves; undefined for a code of no one. */
  participantByCode(code: string): ParticipantView | undefined {
    const r = this.db.prepare('SELECT id FROM participants WHERE code_hash = ?').get([sha256(code)]);
    return r ? this.participant(Number(r['id'])) : undefined;
  }

  /** The participant of label `label` (the scripted participants; admin). */
  participantByLabel(label: string): ParticipantView | undefined {
    const r = this.db.prepare('SELECT id FROM participants WHERE label = ?').get([label]);
    return r ? this.participant(Number(r['id'])) : undefined;
  }

  /** Every participant's label, in creation order. */
  participantLabels(): string[] {
    return this.db.prepare('SELECT label FROM participants ORDER BY id').all().map((r) => String(r['label']));
  }

  /** The participant of id `id` (the server, once it has checked the code), as they may see themselves. */
  participant(id: number): ParticipantView {
    const p = this.db.prepare('SELECT label FROM participants WHERE id = ?').get([id]);
    if (!p) throw new ConfigError(`no participant ${id}`);
    const finished = Number(this.db.prepare("SELECT count(*) AS n FROM sessions WHERE participant = ? AND status = 'finished'").get([id])?.['n'] ?? 0);
    const open = this.db.prepare("SELECT * FROM sessions WHERE participant = ? AND status = 'open'").get([id]) as SessionRow | undefined;
    return { id, label: String(p['label']), finished, sessionsPerParticipant: this.config.sessionsPerParticipant, ...(open ? { open: viewOf(open) } : {}) };
  }

  /**
   * Starts the next session of participant `participantId`: the lowest free slot, its agent and
   * goal seed. Refused (ConfigError) when the study is closed, the participant has an open session
   * (resume it or {@link abandon} it) or has played all their sessions.
   */
  startSession(participantId: number): SessionView {
    let view: SessionView | undefined;
    this.db.transaction(() => {
      if (this.closed) throw new ConfigError('the study is closed');
      const p = this.participant(participantId);
      if (p.open) throw new ConfigError(`participant ${p.label} has session ${p.open.number} open: resume it or abandon it`);
      if (p.finished >= this.config.sessionsPerParticipant) throw new ConfigError(`participant ${p.label} has played all ${this.config.sessionsPerParticipant} sessions`);
      const held = this.db.prepare("SELECT slot FROM sessions WHERE status != 'abandoned' ORDER BY slot").all().map((r) => Number(r['slot']));
      let slot = 0;
      while (slot < held.length && held[slot] === slot) slot++;
      const agent = this.agentOfSlot(slot).label;
      const seed = this.seedOfSlot(slot);
      this.db.prepare("INSERT INTO sessions (participant, number, slot, agent, seed, status, started) VALUES (?, ?, ?, ?, ?, 'open', ?)").run([participantId, p.finished + 1, slot, agent, seed, now()]);
      const row = this.db.prepare("SELECT * FROM sessions WHERE participant = ? AND status = 'open'").get([participantId]) as unknown as SessionRow;
      view = viewOf(row);
    });
    return view as SessionView;
  }

  private row(sessionId: number): SessionRow {
    const r = this.db.prepare('SELECT * FROM sessions WHERE id = ?').get([sessionId]) as SessionRow | undefined;
    if (!r) throw new ConfigError(`no session ${sessionId}`);
    return r;
  }

  private openRow(sessionId: number): SessionRow {
    const r = this.row(sessionId);
    if (r.status !== 'open') throw new ConfigError(`session ${sessionId} is ${r.status}, not open`);
    return r;
  }

  /** The agent of a session (server side only: never shown to its participant). */
  agentOf(sessionId: number): AgentSpec {
    const label = this.row(sessionId).agent;
    const spec = this.config.agents.find((a) => a.label === label);
    if (!spec) throw new DialogymError(`session ${sessionId}: agent ${label} is not in the study's configuration`);
    return spec;
  }

  /** A session of participant `participantId` as they may see it, with its turns; undefined when it is not theirs. */
  sessionView(participantId: number, sessionId: number): (SessionView & { turns: StoredTurn[] }) | undefined {
    const r = this.db.prepare('SELECT * FROM sessions WHERE id = ? AND participant = ?').get([sessionId, participantId]) as SessionRow | undefined;
    return r ? { ...viewOf(r), turns: this.turns(sessionId) } : undefined;
  }

  /** The latest session participant `participantId` started (abandoned ones too), as they may see it; undefined before their first. */
  lastSession(participantId: number): SessionView | undefined {
    const r = this.db.prepare('SELECT * FROM sessions WHERE participant = ? ORDER BY id DESC LIMIT 1').get([participantId]) as SessionRow | undefined;
    return r ? viewOf(r) : undefined;
  }

  /** Every session of participant `participantId` (abandoned ones left out), as they may see them: no agent. */
  sessionsOf(participantId: number): SessionView[] {
    const rows = this.db.prepare("SELECT * FROM sessions WHERE participant = ? AND status != 'abandoned' ORDER BY number").all([participantId]) as unknown as SessionRow[];
    return rows.map(viewOf);
  }

  /** Appends a turn to an open session (its own transaction); content at most `MAX_TURN_CHARS` of JSON. */
  addTurn(sessionId: number, speaker: string, content: unknown): number {
    const json = JSON.stringify(content ?? null);
    if (json.length > MAX_TURN_CHARS) throw new ConfigError(`session ${sessionId}: a turn of ${json.length} characters (at most ${MAX_TURN_CHARS})`);
    let seq = 0;
    this.db.transaction(() => {
      this.openRow(sessionId);
      seq = Number(this.db.prepare('SELECT count(*) AS n FROM turns WHERE session = ?').get([sessionId])?.['n'] ?? 0);
      this.db.prepare('INSERT INTO turns (session, seq, speaker, content, at) VALUES (?, ?, ?, ?, ?)').run([sessionId, seq, speaker, json, now()]);
    });
    return seq;
  }

  /** The turns of a session, in order. */
  turns(sessionId: number): StoredTurn[] {
    return this.db.prepare('SELECT seq, speaker, content FROM turns WHERE session = ? ORDER BY seq').all([sessionId]).map((r) => ({ seq: Number(r['seq']), speaker: String(r['speaker']), content: JSON.parse(String(r['content'])) as unknown }));
  }

  /**
   * Finishes an open session with the environment's judgement and the episode's record, in one
   * transaction (a session is finished once or not at all).
   */
  finishSession(sessionId: number, outcome: SessionOutcome, record: Readonly<Record<string, unknown>>): void {
    this.db.transaction(() => {
      this.openRow(sessionId);
      this.db
        .prepare("UPDATE sessions SET status = 'finished', ended = ?, success = ?, reward = ?, turns = ?, failure = ?, record = ? WHERE id = ?")
        .run([now(), outcome.success ? 1 : 0, outcome.reward, outcome.turns, outcome.failure, JSON.stringify(record), sessionId]);
    });
  }

  /** Marks an open session abandoned (never counted; its number and slot go to the next session). */
  abandon(sessionId: number): void {
    this.db.transaction(() => {
      this.openRow(sessionId);
      this.db.prepare("UPDATE sessions SET status = 'abandoned', ended = ? WHERE id = ?").run([now(), sessionId]);
    });
  }

    /**
   * Claims the study for this process (a server, scripted participants), in one transaction: refused
   * (ConfigError, one line) while another live process holds it; a claim left by a process that
   * died (`kill -9`) is taken over. Marks the sessions an earlier run left open abandoned and returns
   * how many. The claim is the `serving` row of the store (the owner's pid, its start time, what it
   * is and its port), checked alive as {@link processAlive} tells; {@link releaseClaim} drops it.
   */
  claim(what: 'serve' | 'simulate', port?: number): { abandoned: number; release: () => void } {
    const token = secret(9);
    let n = 0;
    this.db.transaction(() => {
      const held = this.claimHolder();
      if (held) {
        const doing = held.what === 'serve' ? `being served by process ${held.pid}${held.port !== undefined ? ` (port ${held.port})` : ' (starting)'}` : `being played by scripted participants (\`dialogym study simulate\`, process ${held.pid})`;
        throw new ConfigError(`${this.dir}: the study is ${doing}; stop it first`);
      }
      const owner: ClaimRow = { pid: process.pid, start: pidStart(process.pid), what, token, ...(port !== undefined ? { port } : {}) };
      this.db.prepare("INSERT INTO meta (key, value) VALUES ('serving', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run([JSON.stringify(owner)]);
      n = this.abandonOpenNow();
    });
    const release = (): void => {
      try {
        this.db.transaction(() => {
          const row = this.claimRow();
          if (row?.token === token) this.db.prepare("DELETE FROM meta WHERE key = 'serving'").run();
        });
      } catch {
        /* the store is closed: the claim is stale once this process ends */
      }
    };
    return { abandoned: n, release };
  }

  /** Sets the port of this process's claim (known once the server listens). */
  claimPort(port: number): void {
    this.db.transaction(() => {
      const row = this.claimRow();
      if (row && row.pid === process.pid) this.db.prepare("UPDATE meta SET value = ? WHERE key = 'serving'").run([JSON.stringify({ ...row, port })]);
    });
  }

  private claimRow(): ClaimRow | undefined {
    const v = this.db.prepare("SELECT value FROM meta WHERE key = 'serving'").get()?.['value'];
    if (typeof v !== 'string') return undefined;
    try {
      return JSON.parse(v) as ClaimRow;
    } catch {
      return undefined;
    }
  }

  /** The live process holding the study, if any (a claim of a dead process is none). */
  claimHolder(): { pid: number; what: string; port?: number } | undefined {
    const row = this.claimRow();
    if (!row || !Number.isInteger(row.pid) || !processAlive(row.pid, row.start)) return undefined;
    return { pid: row.pid, what: row.what, ...(typeof row.port === 'number' ? { port: row.port } : {}) };
  }

  /** Marks every open session abandoned (a restart that cannot resume them); returns how many. */
  abandonOpen(): number {
    let n = 0;
    this.db.transaction(() => {
      n = this.abandonOpenNow();
    });
    return n;
  }

  private abandonOpenNow(): number {
    const n = Number(this.db.prepare("SELECT count(*) AS n FROM sessions WHERE status = 'open'").get()?.['n'] ?? 0);
    this.db.prepare("UPDATE sessions SET status = 'abandoned', ended = ? WHERE status = 'open'").run([now()]);
    return n;
  }

  /** Records the answer to question `questionId` after a finished session (once; a second answer replaces the first). */
  answer(sessionId: number, questionId: string, value: string | number): void {
    const q = this.config.questions.find((x) => x.id === questionId);
    if (!q) throw new ConfigError(`no question ${JSON.stringify(questionId)} in this study (questions: ${this.config.questions.map((x) => x.id).join(', ') || 'none'})`);
    if (q.type === 'rating' && !(typeof value === 'number' && Number.isInteger(value) && value >= q.min && value <= q.max)) throw new ConfigError(`${questionId}: must be an integer from ${q.min} to ${q.max}, got ${JSON.stringify(value)}`);
    if (q.type === 'text' && !(typeof value === 'string' && value.length <= MAX_ANSWER_CHARS)) throw new ConfigError(`${questionId}: must be a text of at most ${MAX_ANSWER_CHARS} characters`);
    this.db.transaction(() => {
      const r = this.row(sessionId);
      if (r.status !== 'finished') throw new ConfigError(`session ${sessionId} is ${r.status}: questions come after a finished dialog`);
      this.db.prepare('INSERT INTO answers (session, question, value, at) VALUES (?, ?, ?, ?) ON CONFLICT (session, question) DO UPDATE SET value = excluded.value, at = excluded.at').run([sessionId, questionId, JSON.stringify(value), now()]);
    });
  }

  /** The episode's record of a finished session (server side: it names the agent), undefined before. */
  recordOf(sessionId: number): Readonly<Record<string, unknown>> | undefined {
    const r = this.db.prepare('SELECT record FROM sessions WHERE id = ?').get([sessionId])?.['record'];
    return typeof r === 'string' ? (JSON.parse(r) as Record<string, unknown>) : undefined;
  }

  /** The answers given after session `sessionId` (question → value). */
  answersOf(sessionId: number): Record<string, string | number> {
    const out: Record<string, string | number> = {};
    for (const a of this.db.prepare('SELECT question, value FROM answers WHERE session = ? ORDER BY question').all([sessionId])) out[String(a['question'])] = JSON.parse(String(a['value'])) as string | number;
    return out;
  }

  /** Every session (admin, report), in id order; `status` keeps only those. */
  sessions(status?: SessionStatus): AdminSession[] {
    const rows = (status ? this.db.prepare('SELECT s.*, p.label AS plabel FROM sessions s JOIN participants p ON p.id = s.participant WHERE s.status = ? ORDER BY s.id').all([status]) : this.db.prepare('SELECT s.*, p.label AS plabel FROM sessions s JOIN participants p ON p.id = s.participant ORDER BY s.id').all()) as unknown as Array<SessionRow & { plabel: string }>;
    const answers = new Map<number, Record<string, string | number>>();
    for (const a of this.db.prepare('SELECT session, question, value FROM answers ORDER BY session, question').all()) {
      const id = Number(a['session']);
      const m = answers.get(id) ?? {};
      m[String(a['question'])] = JSON.parse(String(a['value'])) as string | number;
      answers.set(id, m);
    }
    return rows.map((r) => ({
      ...viewOf(r),
      participant: r.plabel,
      slot: r.slot,
      agent: r.agent,
      started: r.started,
      ended: r.ended,
      ...(r.record !== null ? { record: JSON.parse(r.record) as Record<string, unknown> } : {}),
      answers: answers.get(r.id) ?? {},
    }));
  }

  /** Live counts (admin page). */
  counts(): StudyCounts {
    const by = (status: SessionStatus): number => Number(this.db.prepare('SELECT count(*) AS n FROM sessions WHERE status = ?').get([status])?.['n'] ?? 0);
    const perAgent: Record<string, number> = Object.fromEntries(this.config.agents.map((a) => [a.label, 0]));
    for (const r of this.db.prepare("SELECT agent, count(*) AS n FROM sessions WHERE status = 'finished' GROUP BY agent").all()) perAgent[String(r['agent'])] = Number(r['n']);
    return {
      participants: Number(this.db.prepare('SELECT count(*) AS n FROM participants').get()?.['n'] ?? 0),
      open: by('open'),
      finished: by('finished'),
      abandoned: by('abandoned'),
      perAgent,
      closed: this.closed,
    };
  }
}
