/**
 * The terminal side of `dialogym airdialogue chat`: prints the person's context (the customer's
 * goal, or the flight table and reservation), then one line in, the model's utterance out:
 *   customer: <utterance>      agent: <utterance>
 * Playing the agent, `/book 1004 Emily Edwards` (and /change, /cancel, /no_flight,
 * /no_reservation) ends the dialogue; playing the customer, the learned agent ends it (`/done`
 * asks it to act now). The end
 * prints the action, the expected action and the score. Commands: /context, /history, /new (the
 * next context), /help, /quit. Works on a TTY (prompt) and on piped stdin.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { InputError } from '../../../core/errors.js';
import { AIR_END_STATES, describeAction, describeScore, type AirChat, type AirChatStep, type AirChatTurn } from './chat.js';

/** Options of `runAirRepl`. */
export interface AirReplOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Whether to show a prompt (default: output is a TTY). */
  readonly interactive?: boolean;
  /** The conversation after `/new` (the next context). */
  readonly next: () => AirChat;
}

const HELP_COMMON = ['  /context  your context again', '  /history  the conversation so far', '  /new      a new dialogue (the next context)', '  /quit     leave (or Ctrl-D)'];
const HELP_AGENT = [
  'you play the agent: talk to the customer, then end the dialogue with an action:',
  '  /book <flight> <name>     e.g. /book 1004 Emily Edwards',
  '  /change <flight> <name>   move the reservation to that flight',
  '  /cancel <name>            cancel the reservation',
  '  /no_flight <name>         no flight fits the customer',
  '  /no_reservation <name>    there is no reservation to change or cancel',
];
const HELP_CUSTOMER = [
  'you play the customer: reach your goal with the agent; it ends the dialogue with an action (at the latest after 12 of its turns)',
  '  /done     ask the agent to act now (it decides name, flight and action from the dialogue so far)',
];

/** A turn as a transcript line. */
export function turnLine(t: AirChatTurn): string {
  return `${t.speaker}: ${t.text === '' ? '(says nothing)' : t.text}${t.heard !== undefined ? `   [read as: ${t.heard}]` : ''}`;
}

function intro(chat: AirChat): string[] {
  const who = chat.role === 'customer' ? 'You play the customer; the learned agent answers.' : 'You play the agent; the learned customer talks. End with /book, /change, /cancel, /no_flight or /no_reservation (/help).';
  return [`${who} (${chat.origin})`, ...chat.describeContext(), ...chat.turns.map(turnLine)];
}

function endLines(chat: AirChat): string[] {
  const e = chat.end;
  if (!e) return [];
  return [
    `end: ${e.truncated ? 'cut at the turn limit, unscored' : `the agent acted: ${describeAction(e.action)}`}`,
    `expected: ${describeAction(e.expected)}`,
    describeScore(e.score),
    '(dialogue over: /new for another, /quit to leave)',
  ];
}

/** Runs the REPL until end of input or /quit. */
export async function runAirRepl(first: AirChat, opts: AirReplOptions): Promise<void> {
  const interactive = opts.interactive ?? Boolean((opts.output as Writable & { isTTY?: boolean }).isTTY);
  const write = (lines: readonly string[]): void => {
    for (const l of lines) opts.output.write(l + '\n');
  };
  let chat = first;
  const rl = createInterface({ input: opts.input, output: interactive ? opts.output : undefined, terminal: interactive, historySize: 200, prompt: 'you> ' });
  write(intro(chat));
  if (interactive) rl.prompt();
  for await (const raw of rl) {
    const line = raw.trim();
    const cmd = line.startsWith('/') ? (line.split(/\s+/)[0] as string).toLowerCase() : '';
    if (cmd === '/quit' || cmd === '/exit') break;
    if (line === '') {
      // nothing to say
    } else if (cmd === '/help') write([...(chat.role === 'agent' ? HELP_AGENT : HELP_CUSTOMER), 'commands:', ...HELP_COMMON]);
    else if (cmd === '/context') write(chat.describeContext());
    else if (cmd === '/history') write(chat.turns.length ? chat.turns.map(turnLine) : ['(empty)']);
    else if (cmd === '/new') {
      chat = opts.next();
      write(['(new dialogue)', ...intro(chat)]);
    } else if (cmd === '/done' && chat.role === 'customer' && !chat.end) {
      write(chat.finishNow().turns.map(turnLine));
      write(endLines(chat));
    } else if (cmd === '/done') write([chat.end ? '(the dialogue is over; start a new one)' : '(you play the agent: end the dialogue with an action, e.g. /book 1004 Emily Edwards)']);
    else if (cmd !== '' && !Object.hasOwn(AIR_END_STATES, cmd.slice(1).replace(/-/g, '_'))) write([`(unknown command ${cmd}: try /help)`]);
    else if (cmd !== '' && chat.role === 'customer') write(['(only the agent ends the dialogue with an action; you play the customer)']);
    else {
      let step: AirChatStep | undefined;
      try {
        step = chat.say(line);
      } catch (e) {
        if (!(e instanceof InputError)) {
          rl.close();
          throw e;
        }
        write([`(${e.message})`]);
      }
      if (step) {
        // on a terminal the person's own line is not echoed again, unless the model read it otherwise or it became an action
        write(step.turns.filter((t, i) => i > 0 || !interactive || t.heard !== undefined || t.text !== line).map(turnLine));
        write(endLines(chat));
      }
    }
    if (interactive) rl.prompt();
  }
  rl.close();
  if (!chat.end && chat.turns.length > 0) write(['(input ended before the dialogue did; unscored)']);
}
