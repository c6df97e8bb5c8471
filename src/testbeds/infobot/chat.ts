/**
 * Text rendering of agent actions, and an interactive session where a person plays the user: the
 * session gives them a target movie (the slots they "know" are marked), then relays their utterances
 * to the agent and scores its results like the simulator does.
 */
import type { Rng } from '../../core/rng.js';
import type { InfoBotAction } from './acts.js';
import type { InfoBotAgent } from './agents/agent.js';
import type { MovieKb } from './movie-kb.js';
import { REWARDS, SLOTS, type Slot } from './slots.js';
import type { UserGoal } from './user.js';
import { StateError } from '../../core/errors.js';

const QUESTIONS: Readonly<Record<Slot, string>> = {
  actor: 'Which actor is in the movie?',
  critic_rating: 'What critic rating does it have?',
  genre: 'What genre is it?',
  mpaa_rating: 'What is its MPAA rating?',
  director: 'Who directed it?',
  release_year: 'What year was it released?',
};

/** The agent's action as text (`kb` names the informed movies).
 *
 * @example
 * ```ts
 * import { renderAction, splitKbs } from 'dialogym/infobot';
 * const { incomplete } = splitKbs('small', 1);
 * renderAction({ act: 'request', slot: 'director' }, incomplete); // 'Who directed it?'
 * renderAction({ act: 'inform', results: [0, 1] }, incomplete);    // 'Here is what I found: 1. …; 2. …'
 * ```
 */
export function renderAction(action: InfoBotAction, kb: MovieKb): string {
  if (action.act === 'request') return QUESTIONS[action.slot];
  const names = action.results.map((i, r) => `${r + 1}. ${kb.titles[i]}`);
  return `Here is what I found: ${names.join('; ')}`;
}

/** The target description shown to a human user.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { describeGoal, UserSimulator, splitKbs } from 'dialogym/infobot';
 * const { full } = splitKbs('small', 1);
 * console.log(describeGoal(new UserSimulator(full).sampleGoal(createRng(1)), full).join('\n'));
 * ```
 */
export function describeGoal(goal: UserGoal, full: MovieKb): string[] {
  const lines = [`Your target movie: ${full.titles[goal.target]}`];
  SLOTS.forEach((s, j) => {
    const v = full.value(goal.target, j);
    lines.push(`  ${s.padEnd(14)} ${v ?? 'UNK'}${goal.known.has(j) ? '   (you know this)' : ''}`);
  });
  return lines;
}

/**
 * The result of one human utterance in a `ChatSession`: the agent's reply, whether the chat is
 * over, the reward of this turn and (at the end) success.
 *
 * @example
 * ```ts
 * import type { ChatTurnResult } from 'dialogym/infobot';
 * const r: ChatTurnResult = { reply: 'Who directed it?', done: false, reward: -0.1, success: false };
 * ```
 */
export interface ChatTurnResult {
  readonly reply: string;
  readonly done: boolean;
  readonly reward: number;
  readonly success: boolean;
}

/** One chat between a person and an agent, scored like the simulator (no score without a goal).
 * `say` after the end throws a StateError.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { ChatSession, InfoBotEnv, createInfoBotAgent, UserSimulator } from 'dialogym/infobot';
 * const env = new InfoBotEnv({ split: 'small' });
 * const goal = new UserSimulator(env.full).sampleGoal(createRng(1));
 * const chat = new ChatSession(createInfoBotAgent('rule-soft', env).agent, env.kb, goal, createRng(2));
 * chat.say('i am looking for a comedy').reply;
 * ```
 */
export class ChatSession {
  turn = 0;
  total = 0;
  done = false;

  constructor(
    private readonly agent: InfoBotAgent,
    private readonly kb: MovieKb,
    private readonly goal: UserGoal | null,
    rng: Rng,
    private readonly maxTurns: number = REWARDS.maxTurns,
    private readonly successMaxRank: number = REWARDS.successMaxRank,
  ) {
    agent.begin(rng);
  }

  say(utterance: string): ChatTurnResult {
    if (this.done) throw new StateError('the chat is over');
    const action = this.agent.act(utterance);
    this.turn++;
    let reward: number = REWARDS.perTurn;
    let success = false;
    let reply = renderAction(action, this.kb);
    if (action.act === 'inform') {
      this.done = true;
      if (this.goal) {
        const rank = action.results.indexOf(this.goal.target);
        success = rank >= 0 && rank < this.successMaxRank;
        reward = success ? REWARDS.success * (1 - rank / this.successMaxRank) : REWARDS.failure;
        reply += success ? `\n(your movie is number ${rank + 1}: success)` : '\n(your movie is not among them: failure)';
      } else reward = 0;
    } else if (this.turn >= this.maxTurns) {
      this.done = true;
      reward = REWARDS.failure;
      reply += '\n(out of turns: failure)';
    }
    this.total += reward;
    return { reply, done: this.done, reward, success };
  }
}
