/**
 * A failed episode told turn by turn (`dialogym evaluate --show-failures N`): its goal, the dialog
 * (user / agent / kb lines from the last observation's `history`, or the agent's actions alone
 * when the environment keeps no history), how the user read each agent turn (`reads`), the
 * failure reason and detail, and a marker at the turn where the episode went wrong — the
 * environment's `failureTurn` when it tells, the turn the agent failed to answer for an agent-side
 * failure, else the last agent turn.
 */
import type { EpisodeRecord } from './evaluate.js';

const AGENT_SIDE = new Set(['invalid json', 'no action', 'unknown tool', 'bad arguments', 'turn mismatch', 'reply too long', 'timeout', 'agent exited', 'http error']);

function actionText(a: unknown): string {
  if (typeof a === 'string') return a;
  const s = JSON.stringify(a) ?? String(a);
  return s.length > 300 ? `${s.slice(0, 299)}…` : s;
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 400 ? `${s.slice(0, 399)}…` : s;
}

/** The agent turn where `r` went wrong (see the module description). */
export function wrongTurn(r: EpisodeRecord): number {
  if (r.failureTurn !== undefined) return r.failureTurn;
  if (r.failure !== null && AGENT_SIDE.has(r.failure)) return r.turns;
  return Math.max(0, r.turns - 1);
}

/** The lines of a failed episode, turn by turn (see the module description). */
export function describeEpisode(r: EpisodeRecord): string[] {
  const out: string[] = [];
  out.push(`${r.env} task ${r.episode} trial ${r.trial} (seed ${r.seed}): ${r.success ? 'success' : `failed: ${r.failure ?? 'failed'}`} after ${r.turns} agent turns, reward ${r.reward}`);
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
      if (t.speaker === 'bot') out.push(agentLine(turn++, text));
      else out.push(`       ${String(t.speaker ?? '?').padEnd(5)}  ${text}`);
    }
    // Turns the history does not show (an action the environment refused).
    for (; turn < r.actions.length; turn++) out.push(agentLine(turn, actionText(r.actions[turn])));
  } else {
    r.actions.forEach((a, turn) => out.push(agentLine(turn, actionText(a))));
  }
  if (wrong >= r.actions.length && r.failure !== null && AGENT_SIDE.has(r.failure)) out.push(`> ${String(wrong).padStart(3)}  agent  (no valid reply)   <- went wrong here`);
  out.push(`  failure: ${r.failure ?? 'none'}${r.detail !== undefined ? `  detail: ${short(r.detail)}` : ''}${r.message !== undefined ? `  message: ${r.message}` : ''}`);
  return out;
}
