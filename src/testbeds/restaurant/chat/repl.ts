/**
 * The terminal chat (ParlAI `interactive` style): one line in, the bot's turns out.
 *   bot: <utterance or api_call>
 *   kb:  <KB-result line>
 * Commands: /reset (new conversation), /explain (why the last bot turn), /history, /help, /quit.
 * Works on a TTY (prompt, line editing and history from readline) and on piped stdin (no prompt;
 * each message is echoed as `you: <message>` so the output reads as the conversation).
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { InputError } from '../../../core/errors.js';
import { explanationText } from './explanation.js';
import type { Session, TurnResult } from './session.js';

export interface ReplOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Whether to show a prompt and use readline's terminal mode (default: output is a TTY). */
  readonly interactive?: boolean;
  /** A banner line (model, KB) printed first on a TTY. */
  readonly banner?: string;
}

const HELP = [
  'type a message and press enter; commands:',
  '  /reset    start a new conversation',
  '  /explain  why the bot said its last turn (rule and state / attention / ranking / template, entities and action mask)',
  '  /history  the conversation so far, as the model sees it',
  '  /quit     leave (or Ctrl-D)',
];

export function formatReplies(r: TurnResult): string[] {
  return r.replies.map((x) => (x.kind === 'kb' ? `kb:  ${x.text}` : `bot: ${x.text}`));
}

/** Runs the REPL until end of input or /quit. */
export async function runRepl(session: Session, opts: ReplOptions): Promise<void> {
  const interactive = opts.interactive ?? Boolean((opts.output as Writable & { isTTY?: boolean }).isTTY);
  const write = (lines: string[]): void => {
    for (const l of lines) opts.output.write(l + '\n');
  };
  const rl = createInterface({ input: opts.input, output: interactive ? opts.output : undefined, terminal: interactive, historySize: 200, prompt: 'you> ' });
  if (interactive) {
    if (opts.banner) write([opts.banner]);
    write(['type /help for commands']);
    rl.prompt();
  }
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === '') {
      if (interactive) rl.prompt();
      continue;
    }
    if (line.startsWith('/')) {
      const cmd = line.split(/\s+/)[0];
      if (cmd === '/quit' || cmd === '/exit') break;
      switch (cmd) {
        case '/reset':
          session.reset();
          write(['(new conversation)']);
          break;
        case '/explain': {
          const e = session.lastExplanation;
          write(e ? explanationText(e) : ['(the bot has not spoken yet)']);
          break;
        }
        case '/history':
          write(session.history.length ? session.history.map((t) => `${t.speaker.padEnd(4)} ${t.text}`) : ['(empty)']);
          break;
        case '/help':
          write(HELP);
          break;
        default:
          write([`unknown command ${cmd} (try /help)`]);
      }
    } else {
      if (!interactive) write([`you: ${line}`]);
      try {
        write(formatReplies(session.send(line)));
      } catch (e) {
        if (!(e instanceof InputError)) {
          rl.close();
          throw e;
        }
        write([`(${e.message})`]);
      }
    }
    if (interactive) rl.prompt();
  }
  rl.close();
}
