/**
 * The evaluation harness from the library (`npm run build && node dist/examples/evaluate.js`): a
 * bAbI task-1 agent written here as an object with `act` (the same policy as
 * examples/python/policy.py), scored with pass^k over 3 trials, then dialogym's own rule bot on
 * task 5 with 4 episodes in flight, and the first failed episode of a run cut short, turn by turn.
 */
import { evaluate, loadAgent, type Agent, type AgentRequest, type ToolSpec } from 'dialogym';

const QUESTIONS: Record<string, string> = {
  cuisine: 'any preference on a type of cuisine',
  location: 'where should it be',
  number: 'how many people would be in your party',
  price: 'which price range are looking for',
};

/** Asks for the slots the user has not given (the api_call tool's enums are the values it knows), then calls. */
const taskOne: Agent = {
  act(req: AgentRequest) {
    if (req.turn === 0) return 'hello what can i help you with today';
    if (req.turn === 1) return "i'm on it";
    const api = req.tools.find((t: ToolSpec) => t.function.name === 'api_call');
    const params = api?.function.parameters as { properties: Record<string, { enum?: string[] }>; required: string[] };
    const history = (req.observation as { history: Array<{ speaker: string; text: string }> }).history;
    const known: Record<string, string> = {};
    for (const t of history.filter((x) => x.speaker === 'user')) {
      for (const word of t.text.replace(/,/g, ' ').split(/\s+/)) {
        for (const [slot, spec] of Object.entries(params.properties)) if (spec.enum?.includes(word)) known[slot] = word;
      }
    }
    const missing = params.required.find((slot) => !(slot in known));
    return missing !== undefined ? (QUESTIONS[missing] ?? `what ${missing}`) : { tool: 'api_call', arguments: known };
  },
};

const mine = await evaluate('restaurant-task1-v1', taskOne, { episodes: 50, trials: 3, seed: 0 });
console.log(`task-1 agent: success ${mine.summary.success.toFixed(3)} pass^3 ${(mine.summary.passK[2] ?? 0).toFixed(3)} (${mine.records.length} episodes)`);

const rules = await evaluate('restaurant-task5-v1', loadAgent('rules'), { episodes: 40, concurrency: 4 });
console.log(`rules on task 5, 4 in flight: success ${rules.summary.success.toFixed(3)} avg turns ${rules.summary.avgTurns.toFixed(2)}`);

const short = await evaluate('restaurant-task1-v1', taskOne, { episodes: 5, envOptions: { maxTurns: 3 } });
const failed = short.records.find((r) => !r.success);
console.log(`cut at 3 turns: failures ${JSON.stringify(short.summary.failures)}; first failed goal ${JSON.stringify(failed?.goal)}`);
