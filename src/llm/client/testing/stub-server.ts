/**
 * A scripted Chat Completions endpoint for the unit tests of `src/llm/`: each request gets the next
 * scripted step (a completion, an HTTP error with headers, a delay, a cut body) and is recorded.
 * test/llm-server.ts is the full test server (it validates requests and plays dialogym's agents).
 */
import { createServer, type Server } from 'node:http';

/** One scripted answer. */
export type Step =
  | { readonly reply: { content?: string | null; tool_calls?: unknown[]; refusal?: string | null }; readonly finish?: string; readonly usage?: [number, number] }
  | { readonly status: number; readonly headers?: Readonly<Record<string, string>> }
  | { readonly delayMs: number; readonly then: Step }
  | { readonly truncate: true }
  | { readonly raw: string };

/** A request the stub received. */
export interface Received {
  readonly body: Record<string, unknown>;
  readonly authorization: string | undefined;
}

/** A running stub: its base URL, what it received, and `close`. */
export interface Stub {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

function completion(step: Extract<Step, { reply: unknown }>): string {
  const [pin, pout] = step.usage ?? [10, 2];
  return JSON.stringify({
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 0,
    model: 'stub',
    choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, ...step.reply }, finish_reason: step.finish ?? (step.reply.tool_calls ? 'tool_calls' : 'stop') }],
    usage: { prompt_tokens: pin, completion_tokens: pout, total_tokens: pin + pout },
  });
}

/** Starts a stub answering with `script` in order (the last step repeats). */
export async function startStub(script: readonly Step[]): Promise<Stub> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, authorization: req.headers.authorization });
      const step = script[Math.min(received.length, script.length) - 1] as Step;
      const answer = (s: Step): void => {
        if ('delayMs' in s) {
          setTimeout(() => answer(s.then), s.delayMs);
          return;
        }
        if ('status' in s) {
          res.writeHead(s.status, { 'content-type': 'application/json', ...(s.headers ?? {}) });
          res.end(JSON.stringify({ error: { message: `stub error ${s.status}`, type: 'x', param: null, code: null } }));
          return;
        }
        if ('truncate' in s) {
          const text = completion({ reply: { content: 'cut' } });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
          res.write(text.slice(0, 20), () => setTimeout(() => res.destroy(), 5));
          return;
        }
        const text = 'raw' in s ? s.raw : completion(s);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
      };
      answer(step);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
