/**
 * A failed episode told turn by turn (`dialogym evaluate --show-failures N`): its goal, the dialog
 * (user / agent / kb lines from the last observation's `history`, or the agent's actions alone
 * when the environment keeps no history), how the user read each agent turn (`reads`), the
 * failure reason and detail, and a marker at the turn where the episode went wrong — the
 * environment's `failureTurn` when it tells, the turn the agent failed to answer for an agent-side
 * failure, else the last agent turn.
 */
import type { EpisodeRecord } from './evaluate.js';
import { detailInWords, shortJson } from '../env/detail-words.js';

export { detailInWords };

const AGENT_SIDE = new Set(['invalid json', 'no action', 'unknown tool', 'bad arguments', 'turn mismatch', 'reply too long', 'timeout', 'agent exited', 'http error']);

function actionText(a: unknown): string {
  if (typeof a === 'string') return a;
  const s = JSON.stringify(a) ?? String(a);
  return s.length > 300 ? `${s.slice(0, 299)}…` : s;
}

/** The tool of a tool call or the status of an action object (`{tool}`, `{action: {status}}`), if any. */
function actionName(a: unknown): string | undefined {
  if (typeof a !== 'object' || a === null) return undefined;
  const o = a as { tool?: unknown; action?: { status?: unknown } | null };
  if (typeof o.tool === 'string') return o.tool;
  return typeof o.action?.status === 'string' ? o.action.status : undefined;
}

const short = shortJson;

/** The agent turn where `r` went wrong (see the module description). */
export function wrongTurn(r: EpisodeRecord): number {
  if (r.failureTurn !== undefined) return r.failureTurn;
  if (r.failure !== null && AGENT_SIDE.has(r.failure)) return r.turns;
  return Math.max(0, r.turns - 1);
}

/** The lines of a failed episode, turn by turn (see the module description). */
export function describeEpisode(r: EpisodeRecord): string[] {
  const out: string[] = [];
  // 'failed' is dialogym evaluate's reason for an episode the environment judged failed without naming why.
  const outcome = r.success ? 'success' : r.failure === null || r.failure === 'failed' ? 'failed (the environment names no reason)' : `failed: ${r.failure}`;
  out.push(`${r.env} task ${r.episode} trial ${r.trial} (seed ${r.seed}): ${outcome} after ${r.turns} agent turns, reward ${r.reward}`);
  if (r.goal !== undefined) out.push(`  goal: ${short(r.goal)}`);
  const wrong = wrongTurn(r);
  const reads = r.reads ?? [];
  const agentLine = (turn: number, text: string): string => {
    const read = reads[turn];
    const mark = turn === wrong ? '>' : ' ';
    return `${mark} ${String(turn).padStart(3)}  agent  ${text}${read !== undefined && read !== null ? `   [read: ${typeof read === 'string' ? read : short(read)}]` : ''}${turn === wrong ? '   <- went wrong here' : ''}`;
  };
  const history = (r.observation as { history?: unknown } | null)?.history;
  if (Array.isArray(history)) {
    let turn = 0;
    for (const t of history as Array<{ speaker?: unknown; text?: unknown }>) {
      const text = typeof t.text === 'string' ? t.text : short(t.text);
      if (t.speaker === 'bot') {
        // A tool call the history shows as its utterance alone (AirDialogue), or as nothing: show the call too.
        const a = r.actions[turn];
        const name = actionName(a);
        out.push(agentLine(turn++, name !== undefined && !text.startsWith(name) ? `${text === '' ? '' : `${text}   `}${actionText(a)}` : text));
      }
      else out.push(`       ${String(t.speaker ?? '?').padEnd(5)}  ${text}`);
    }
    // Turns the history does not show (an action the environment refused).
    for (; turn < r.actions.length; turn++) out.push(agentLine(turn, actionText(r.actions[turn])));
  } else {
    r.actions.forEach((a, turn) => out.push(agentLine(turn, actionText(a))));
  }
  if (wrong >= r.actions.length && r.failure !== null && AGENT_SIDE.has(r.failure)) out.push(`> ${String(wrong).padStart(3)}  agent  (no valid reply)   <- went wrong here`);
  const last = (r.observation as { utterance?: unknown } | null)?.utterance;
  if (!Array.isArray(history) && typeof last === 'string' && last !== '') out.push(`       user   ${last}   (its last words)`);
  out.push(`  failure: ${r.failure ?? 'none'}${r.detail !== undefined ? `  detail: ${short(r.detail)}` : ''}${r.message !== undefined ? `  message: ${r.message}` : ''}`);
  const why = detailInWords(r.detail);
  if (why !== undefined) out.push(`  why: ${why}`);
  return out;
}
