/**
 * A client of an OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, Ollama, llama.cpp's
 * server, …) through the official `openai` package, with what an evaluation run needs around it:
 *
 * - the request body is `{model, messages, tools?, temperature: 0, ...options}` (options override
 *   the temperature; anything the endpoint takes can be passed);
 * - a per-request timeout that covers the whole response (the headers and every byte of the body:
 *   a server that trickles its body or falls silent after the headers times out as one that never
 *   answers) and a size limit on the body (`maxReplyBytes`, counted as it streams in, so a huge
 *   reply is refused at the limit without being held);
 * - retries of 408 / 409 / 429 / 5xx, timeouts, refused connections and cut or unreadable bodies,
 *   with exponential backoff and jitter — the jitter drawn from a seeded `Rng` forked by the request's key and attempt, so a run's waits are reproducible — honouring
 *   `retry-after-ms` and `Retry-After` (seconds or an HTTP date) when the server sends them
 *   (from the third retry of a request on, waiting at least the backoff as well);
 *   the package's own retries are off (they jitter with `Math.random`);
 * - a failure budget: a request that still fails after its retries (or is refused with another 4xx)
 *   is an `LlmError` the caller may count against one episode; once more than `maxFailures`
 *   requests have failed, or at once for 401 / 403 / 404 (a wrong key, URL or model), the error is
 *   `fatal` and the run should stop; so it is when the endpoint has not answered once and its first
 *   `maxFailuresBeforeReply` attempts all failed for the same reason (an HTML page, a 500, a refused
 *   connection: a wrong URL or a broken server, not a passing fault — 429, 503 and timeouts are not
 *   counted), so that a hopeless run stops in seconds rather than after every request's retries;
 * - the response cache (`cache.ts`), keyed by the canonical request body: a hit sends nothing and
 *   gives back the stored response and latency, so a finished run replays offline byte for byte;
 * - accounting: tokens in / out of each reply (the server's `usage`), latencies of the requests sent.
 */
import { setMaxListeners } from 'node:events';
import { createRequire } from 'node:module';
import type OpenAIClient from 'openai';
import type { ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { ConfigError, DialogymError, errorText, optionName, type ErrorText } from '../../core/errors.js';
import { depthOver } from '../../core/json-depth.js';
import { createRng, type Rng } from '../../core/rng.js';
import type { ResponseCache } from './cache.js';
import { canonicalJson, keyOfCanonical } from './canonical.js';
import { percentile, type TokenUsage } from './usage.js';
import { DEFAULT_MAX_LLM_REPLY_BYTES } from './limits.js';

type OpenAIModule = typeof OpenAIClient;
let openai: OpenAIModule | undefined;
/** The `openai` package, loaded on the first client (~100 ms that `import 'dialogym'` should not pay). */
function openaiModule(): OpenAIModule {
  openai ??= (createRequire(import.meta.url)('openai') as { default: OpenAIModule }).default;
  return openai;
}

/** The default endpoint (`--llm-url`). */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export { DEFAULT_MAX_LLM_REPLY_BYTES };

/** Failed attempts before the endpoint's first answer, all for the same reason, after which the run stops. */
export const DEFAULT_MAX_FAILURES_BEFORE_REPLY = 5;

/** A body past `maxReplyBytes` (raised by the body stream as it is read). */
class ReplyTooLong extends Error {
  constructor(readonly limit: number) {
    super(`the response is longer than ${limit} bytes`);
  }
}

/**
 * `fetch` whose response bodies stop at `limit` bytes: a longer body (or a `content-length` above the
 * limit) errors the body stream with a ReplyTooLong, and the connection is dropped, so no more than
 * the limit is ever read.
 */
function limitedFetch(limit: number): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (res.body === null) return res;
    const declared = Number(res.headers.get('content-length'));
    let seen = 0;
    const cap = new TransformStream<Uint8Array, Uint8Array>({
      start(c) {
        if (Number.isFinite(declared) && declared > limit) c.error(new ReplyTooLong(limit));
      },
      transform(chunk, c) {
        seen += chunk.byteLength;
        if (seen > limit) c.error(new ReplyTooLong(limit));
        else c.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(cap), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/**
 * Options of an `LlmClient` (the CLI's `--llm-*` flags).
 *
 * @example
 * ```ts
 * import { LlmClient, ResponseCache, type LlmClientOptions } from 'dialogym';
 * const opts: LlmClientOptions = { model: 'qwen2.5:7b', baseUrl: 'http://localhost:11434/v1', options: { max_tokens: 256 }, timeoutMs: 30_000, maxRetries: 10, cache: new ResponseCache('runs/cache') };
 * const llm = new LlmClient(opts);
 * ```
 */
export interface LlmClientOptions {
  /** The model name sent in every request. */
  readonly model: string;
  /** Base URL of the API (up to `/v1`); default `OPENAI_BASE_URL`. */
  readonly baseUrl?: string;
  /** The API key; default none (a placeholder is sent: local servers ignore it). */
  readonly apiKey?: string;
  /** Further body members (`temperature`, `max_tokens`, `seed`, …); `temperature` defaults to 0. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Per-request timeout in ms; default 60,000. */
  readonly timeoutMs?: number;
  /** Retries of a failed request; default 10. */
  readonly maxRetries?: number;
  /** First backoff in ms (doubled per retry, jitter ×0.5–1); default 1,000. */
  readonly retryBaseMs?: number;
  /** Longest wait before a retry in ms (a longer `Retry-After` fails the request); default 60,000. */
  readonly retryMaxMs?: number;
  /** Requests that may fail for good before the run stops; default 10. */
  readonly maxFailures?: number;
  /** Attempts that may fail, all for the same reason, before the endpoint has answered once: then the run stops; default 5. */
  readonly maxFailuresBeforeReply?: number;
  /** Longest response body in bytes (the error bodies too): a longer one is refused as it streams in; default 4 MiB (`DEFAULT_MAX_LLM_REPLY_BYTES`). */
  readonly maxReplyBytes?: number;
  /**
   * Longest request body in bytes (the canonical JSON of the conversation): a longer one is not sent
   * and fails its request; default 8 MiB, beyond any model's context (1M tokens are about 4 MB), so that replies under
   * `maxReplyBytes` turn after turn cannot grow a conversation, and the memory, without end.
   */
  readonly maxRequestBytes?: number;
  /** Where responses are cached (`--cache`); default none. */
  readonly cache?: ResponseCache;
  /** Seed of the retry jitter; default 0. */
  readonly seed?: number;
  /** How to wait (tests); default a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * One chat request: the messages and the tools the model may call.
 *
 * @example
 * ```ts
 * import type { ChatRequest } from 'dialogym';
 * const req: ChatRequest = { messages: [{ role: 'system', content: 'You book tables.' }, { role: 'user', content: 'hi' }] };
 * ```
 */
export interface ChatRequest {
  readonly messages: readonly ChatCompletionMessageParam[];
  readonly tools?: readonly ChatCompletionTool[];
}

/**
 * The first choice of a reply, with its accounting.
 *
 * @example
 * ```ts
 * import { LlmClient, type ChatReply } from 'dialogym';
 * const r: ChatReply = await new LlmClient({ model: 'm', baseUrl: 'http://localhost:8080/v1' }).chat({ messages: [{ role: 'user', content: 'hi' }] });
 * console.log(r.message.content, r.message.tool_calls, r.finishReason, r.usage.tokensIn, r.latencyMs, r.cached);
 * ```
 */
export interface ChatReply {
  readonly message: ChatCompletionMessage;
  /** `stop`, `tool_calls`, `length`, … as the server says. */
  readonly finishReason: string;
  /** This request's tokens (requests: 1). */
  readonly usage: TokenUsage;
  /** The request's latency in ms (a cache hit: the latency stored with it). */
  readonly latencyMs: number;
  readonly cached: boolean;
}

/**
 * What a client has done so far (the last line of `evaluate --agent-llm`'s summary).
 *
 * @example
 * ```ts
 * import { LlmClient, type LlmStats } from 'dialogym';
 * const s: LlmStats = new LlmClient({ model: 'm', baseUrl: 'http://localhost:8080/v1' }).stats();
 * console.log(s.sent, s.cacheHits, s.retries, s.failed, s.latencyP50, s.latencyP95);
 * ```
 */
export interface LlmStats {
  /** Requests sent to the server (retries included). */
  readonly sent: number;
  /** Requests answered from the cache. */
  readonly cacheHits: number;
  readonly retries: number;
  /** Requests that failed for good. */
  readonly failed: number;
  /** Latency percentiles (ms) of the requests answered by the server; null when none was. */
  readonly latencyP50: number | null;
  readonly latencyP95: number | null;
}

/**
 * A request that failed for good: `reason` is a short cause (`HTTP 500`, `timeout`, …), the
 * message one line naming the endpoint. `fatal`: the run should stop (bad key / URL / model, or the
 * failure budget is spent).
 *
 * @example
 * ```ts
 * import { LlmClient, LlmError } from 'dialogym';
 * try {
 *   await new LlmClient({ model: 'm', baseUrl: 'http://localhost:8080/v1', maxRetries: 0 }).chat({ messages: [{ role: 'user', content: 'hi' }] });
 * } catch (e) {
 *   if (e instanceof LlmError) console.error(e.reason, e.fatal, e.message);
 * }
 * ```
 */
export class LlmError extends DialogymError {
  constructor(
    message: string | ErrorText,
    readonly reason: string,
    readonly fatal: boolean,
    /** Tokens of a reply that was answered but could not be used (a user's reply without text), to be counted all the same. */
    readonly usage?: TokenUsage,
  ) {
    super(message);
  }
}

/** The wait a response asks for before a retry, in ms: `retry-after-ms`, else `Retry-After` (seconds or an HTTP date). */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** One attempt's outcome when it failed: retry it or not, what to say, how long the server asks to wait. */
interface Failure {
  readonly retry: boolean;
  readonly fatal: boolean;
  readonly reason: string;
  readonly detail: string;
  readonly waitMs?: number;
}

/** Reasons of a failed attempt that a healthy endpoint does not give again and again (not 429, 503, timeouts). */
function lasting(reason: string): boolean {
  return reason === 'bad response' || reason === 'connection' || (/^HTTP 5\d\d$/.test(reason) && reason !== 'HTTP 503');
}

function failureOf(e: unknown): Failure {
  const OpenAI = openaiModule();
  const tooLong = e instanceof ReplyTooLong ? e : e instanceof Error && e.cause instanceof ReplyTooLong ? e.cause : undefined;
  // Not retried: the same request gets the same reply.
  if (tooLong) return { retry: false, fatal: false, reason: 'reply too long', detail: `${tooLong.message} (maxReplyBytes)` };
  if (e instanceof OpenAI.APIConnectionTimeoutError) return { retry: true, fatal: false, reason: 'timeout', detail: 'no reply within the timeout' };
  if (e instanceof OpenAI.APIConnectionError) return { retry: true, fatal: false, reason: 'connection', detail: describe(e.cause ?? e) };
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    const s = e.status;
    const wait = retryAfterMs(e.headers ?? undefined);
    // The package's message starts with the status ("429 Rate limit reached …").
    const detail = `HTTP ${s}: ${firstLine(e.message.replace(new RegExp(`^${s} `), ''))}`;
    const retry = s === 408 || s === 409 || s === 429 || s >= 500;
    const fatal = s === 401 || s === 403 || s === 404;
    return { retry, fatal, reason: `HTTP ${s}`, detail, ...(wait !== undefined ? { waitMs: wait } : {}) };
  }
  // A body cut short or not JSON (fetch's "terminated", JSON.parse's SyntaxError): the server may do better next time.
  if (e instanceof SyntaxError || e instanceof TypeError) return { retry: true, fatal: false, reason: 'bad response', detail: `unreadable response body (${firstLine(describe(e))})` };
  throw e;
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

function firstLine(s: string): string {
  return (s.split('\n')[0] ?? s).slice(0, 300);
}

/** The deepest nesting of a response read (a chat completion with tool arguments is a dozen levels). */
const MAX_RESPONSE_DEPTH = 256;

/** A token count of `usage` as the server gave it: a non-negative integer, else 0. */
function tokenCount(x: unknown): number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0 ? x : 0;
}

/** The start of a text body on one line, quoted (what a server sent instead of JSON). */
function quoted(text: string): string {
  return JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 60));
}

/**
 * The first choice of a response body, or a description of what is wrong with it. The message is
 * passed on as an object whatever its members hold: the conversation reads each member by its
 * type (`conversation.ts`), so that a reply of the wrong shape fails its episode, not the run.
 */
function firstChoice(body: unknown): { message: ChatCompletionMessage; finishReason: string; usage: TokenUsage } | string {
  if (typeof body === 'string') return `the response is not JSON: ${quoted(body)}`;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the response is not a JSON object';
  if (depthOver(body, MAX_RESPONSE_DEPTH)) return `the response is nested deeper than ${MAX_RESPONSE_DEPTH} levels`;
  const b = body as { choices?: unknown; usage?: unknown };
  const c: unknown = Array.isArray(b.choices) ? b.choices[0] : undefined;
  const m: unknown = c !== null && typeof c === 'object' ? (c as { message?: unknown }).message : undefined;
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return 'the response has no choices[0].message object';
  const u = (b.usage !== null && typeof b.usage === 'object' ? b.usage : {}) as { prompt_tokens?: unknown; completion_tokens?: unknown };
  const f = (c as { finish_reason?: unknown }).finish_reason;
  return { message: m as ChatCompletionMessage, finishReason: typeof f === 'string' ? f : '', usage: { requests: 1, tokensIn: tokenCount(u.prompt_tokens), tokensOut: tokenCount(u.completion_tokens) } };
}

/**
 * A Chat Completions client (module description above). Throws a ConfigError for a bad option
 * (`stream`, which the evaluation cannot use, or a non-positive timeout).
 *
 * @example
 * ```ts
 * import { LlmClient } from 'dialogym';
 * const llm = new LlmClient({ model: 'qwen2.5:7b', baseUrl: 'http://localhost:11434/v1' });
 * const r = await llm.chat({ messages: [{ role: 'user', content: 'hello' }] });
 * console.log(r.message.content, r.usage.tokensIn, r.usage.tokensOut);
 * ```
 */
export class LlmClient {
  readonly model: string;
  readonly baseUrl: string;
  private readonly api: OpenAIClient;
  private readonly options: Readonly<Record<string, unknown>>;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxFailures: number;
  private readonly maxFailuresBeforeReply: number;
  private readonly maxReplyBytes: number;
  private readonly maxRequestBytes: number;
  private readonly cache: ResponseCache | undefined;
  private readonly rng: Rng;
  private readonly sleep: (ms: number) => Promise<void>;
  private sent = 0;
  private cacheHits = 0;
  private retries = 0;
  private failed = 0;
  private readonly latencies: number[] = [];
  /** Whether the endpoint has answered a request (with a reply read whole). */
  private answered = false;
  /** Attempts failed before the first answer, while all failed for the same reason: that reason and how many. */
  private startFailures: { reason: string; n: number } | undefined;
  /** The fatal error that stopped the client: every request after it (and every retry waiting) fails with it at once. */
  private stopped: LlmError | undefined;
  private readonly stopSignal = new AbortController();

  constructor(o: LlmClientOptions) {
    if (o.model.trim() === '') throw new ConfigError('the model name is empty');
    if (o.options && 'stream' in o.options && o.options['stream'] !== false) throw new ConfigError('stream: streamed replies are not supported (dialogym reads whole replies)', { option: 'llmOption' });
    for (const [name, v] of [['timeoutMs', o.timeoutMs], ['retryBaseMs', o.retryBaseMs], ['retryMaxMs', o.retryMaxMs], ['maxReplyBytes', o.maxReplyBytes], ['maxRequestBytes', o.maxRequestBytes], ['maxFailuresBeforeReply', o.maxFailuresBeforeReply]] as const) {
      if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new ConfigError(`${name} must be a positive number, got ${String(v)}`);
    }
    this.model = o.model;
    this.baseUrl = (o.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '');
    this.options = { temperature: 0, ...(o.options ?? {}) };
    this.timeoutMs = o.timeoutMs ?? 60_000;
    this.maxRetries = o.maxRetries ?? 10;
    this.retryBaseMs = o.retryBaseMs ?? 1000;
    this.retryMaxMs = o.retryMaxMs ?? 60_000;
    this.maxFailures = o.maxFailures ?? 10;
    this.maxFailuresBeforeReply = o.maxFailuresBeforeReply ?? DEFAULT_MAX_FAILURES_BEFORE_REPLY;
    this.maxReplyBytes = o.maxReplyBytes ?? DEFAULT_MAX_LLM_REPLY_BYTES;
    this.maxRequestBytes = o.maxRequestBytes ?? 8 * 1024 * 1024;
    this.cache = o.cache;
    this.rng = createRng(o.seed ?? 0).fork('llm-retry');
    this.sleep = o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    // Every attempt in flight and every waiting retry listens to it (concurrency lanes at once).
    setMaxListeners(0, this.stopSignal.signal);
    // Retries are ours (seeded jitter); the package's are off.
    const OpenAI = openaiModule();
    // Bodies pass through a byte limit; the timeout of each attempt (below) covers headers and body.
    this.api = new OpenAI({ baseURL: this.baseUrl, apiKey: o.apiKey ?? 'no-key', maxRetries: 0, timeout: this.timeoutMs, fetch: limitedFetch(this.maxReplyBytes) });
  }

  /** The request body for `req` (what is sent and what the cache key is made of). */
  body(req: ChatRequest): Record<string, unknown> {
    return { model: this.model, messages: req.messages, ...(req.tools && req.tools.length > 0 ? { tools: req.tools } : {}), ...this.options };
  }

  /** Sends `req` (or answers it from the cache); see the module description for retries and errors. */
  async chat(req: ChatRequest): Promise<ChatReply> {
    const body = this.body(req);
    const canonical = canonicalJson(body);
    const key = keyOfCanonical(canonical);
    // Measured in UTF-16 units (a lower bound of the bytes): cheap, and the limit is far from any real conversation.
    if (canonical.length > this.maxRequestBytes) return this.fail({ retry: false, fatal: false, reason: 'request too long', detail: `the request's JSON is ${canonical.length} characters, more than maxRequestBytes (${this.maxRequestBytes})` }, 0, '');
    // An entry is checked whole (its digest, and a reply the client can read) or refused in one line.
    const hit = this.cache?.get(key, (r) => {
      const c = firstChoice(r);
      return typeof c === 'string' ? c : undefined;
    });
    if (hit) {
      this.cacheHits++;
      return { ...(firstChoice(hit.response) as Exclude<ReturnType<typeof firstChoice>, string>), latencyMs: hit.latencyMs, cached: true };
    }
    let last: Failure | undefined;
    let attempts = 0;
    for (let attempt = 0; attempt <= this.maxRetries; attempt++) {
      if (attempt > 0) {
        const wait = this.waitBefore(key, attempt, last as Failure);
        if (wait === undefined) return this.fail(last as Failure, attempts, ` (the server asks to wait ${Math.round(((last as Failure).waitMs ?? 0) / 1000)} s, more than the ${Math.round(this.retryMaxMs / 1000)} s allowed)`);
        this.retries++;
        await this.wait(wait);
      }
      if (this.stopped) throw this.stopped;
      attempts++;
      this.sent++;
      const t0 = performance.now();
      // The deadline of the whole attempt: the package's own timeout stops at the headers.
      const deadline = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        deadline.abort();
      }, this.timeoutMs);
      const stop = (): void => deadline.abort();
      this.stopSignal.signal.addEventListener('abort', stop, { once: true });
      let response: unknown;
      try {
        response = await this.api.chat.completions.create(body as never, { timeout: this.timeoutMs, maxRetries: 0, signal: deadline.signal });
      } catch (e) {
        if (this.stopped) throw this.stopped;
        last = timedOut ? { retry: true, fatal: false, reason: 'timeout', detail: `no whole reply within ${this.timeoutMs} ms` } : failureOf(e);
        this.beforeReply(last);
        if (!last.retry) break;
        continue;
      } finally {
        clearTimeout(timer);
        this.stopSignal.signal.removeEventListener('abort', stop);
      }
      const latencyMs = Math.round((performance.now() - t0) * 1000) / 1000;
      const c = firstChoice(response);
      if (typeof c === 'string') {
        last = { retry: true, fatal: false, reason: 'bad response', detail: c };
        this.beforeReply(last);
        continue;
      }
      this.answered = true;
      this.latencies.push(latencyMs);
      this.cache?.put(key, response, latencyMs);
      return { ...c, latencyMs, cached: false };
    }
    return this.fail(last as Failure, attempts, '');
  }

  /** Waits `ms` before a retry, or less when the client is stopped meanwhile. */
  private async wait(ms: number): Promise<void> {
    let done: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (done = resolve));
    this.stopSignal.signal.addEventListener('abort', done, { once: true });
    try {
      await Promise.race([this.sleep(ms), stopped]);
    } finally {
      this.stopSignal.signal.removeEventListener('abort', done);
    }
  }

  /**
   * Counts a failed attempt before the endpoint's first answer: once `maxFailuresBeforeReply`
   * attempts in a row failed for the same lasting reason, the run stops (a fatal LlmError).
   */
  private beforeReply(f: Failure): void {
    if (this.answered || f.fatal) return;
    if (!lasting(f.reason)) {
      this.startFailures = undefined;
      return;
    }
    this.startFailures = this.startFailures?.reason === f.reason ? { reason: f.reason, n: this.startFailures.n + 1 } : { reason: f.reason, n: 1 };
    if (this.startFailures.n < this.maxFailuresBeforeReply) return;
    this.failed++;
    this.stop(new LlmError(`${this.baseUrl} (model ${this.model}): the endpoint has not answered once: its first ${this.startFailures.n} attempts all failed, the last: ${f.detail}`, f.reason, true));
  }

  /** Stops the client with a fatal error (module description) and throws it. */
  private stop(e: LlmError): never {
    this.stopped ??= e;
    this.stopSignal.abort();
    throw e;
  }

  /** The wait before retry `attempt`, or undefined when the server asks for longer than `retryMaxMs`. */
  private waitBefore(key: string, attempt: number, f: Failure): number | undefined {
    const u = this.rng.fork(`${key}:${attempt}`).next();
    const backoff = (n: number): number => Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (n - 1)) * (0.5 + 0.5 * u);
    if (f.waitMs !== undefined) {
      if (f.waitMs > this.retryMaxMs) return undefined;
      // What the server asks, and a little more so that clients told the same do not all come back at once.
      const asked = f.waitMs + u * Math.min(f.waitMs * 0.1, this.retryBaseMs);
      // A server that asks again and again (a third retry and on): at least the backoff too, so that a
      // request told the same short wait each time leaves the rhythm of the others. Measured: 429 on
      // every third request, retry-after-ms 2, two requests in flight: one request was refused 11 times
      // in a row (its retries kept landing on the refused count); with this, none.
      return attempt < 3 ? asked : Math.max(asked, backoff(attempt - 2));
    }
    return backoff(attempt);
  }

  private fail(f: Failure, attempts: number, note: string): never {
    this.failed++;
    const where = `${this.baseUrl} (model ${this.model})`;
    if (f.fatal) {
      const hint = f.reason === 'HTTP 404' ? errorText` (check ${optionName('llmUrl')} and the model name)` : errorText` (the API key comes from OPENAI_API_KEY or ${optionName('llmKeyEnv')})`;
      this.stop(new LlmError([`${where}: ${f.detail}`, ...hint], f.reason, true));
    }
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    if (this.failed > this.maxFailures) this.stop(new LlmError(`${where}: ${this.failed} requests failed, more than the failure budget of ${this.maxFailures}; the last: ${f.detail}${tries}${note}`, f.reason, true));
    throw new LlmError(`${where}: ${f.detail}${tries}${note}`, f.reason, false);
  }

  /** What this client has done so far. */
  stats(): LlmStats {
    const has = this.latencies.length > 0;
    return {
      sent: this.sent,
      cacheHits: this.cacheHits,
      retries: this.retries,
      failed: this.failed,
      latencyP50: has ? percentile(this.latencies, 50) : null,
      latencyP95: has ? percentile(this.latencies, 95) : null,
    };
  }
}
