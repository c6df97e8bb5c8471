/**
 * Agent processes owned end to end. Each agent command runs under `sh -c` as the leader of its
 * own process group (`detached`), with a mark in its environment (`DIALOGYM_AGENT_MARK`) that its
 * descendants inherit. Ending it ends all of it: SIGTERM to the group, to every descendant found
 * through `/proc` (parent links) and to every process carrying the mark (which finds the children
 * that left the group with `setsid` and were re-parented), then SIGKILL to whatever is still alive
 * after a grace period. Our ends of its pipes are destroyed and the child unreferenced, so a
 * grandchild that still holds the agent's stdout cannot keep this process alive.
 *
 * `/proc` is Linux's; elsewhere only the group is signalled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The environment variable that marks an agent's processes. */
export const AGENT_MARK_VARIABLE = 'DIALOGYM_AGENT_MARK';

let started = 0;

/** A started agent command: the child (`sh -c`), its group id and its mark. */
export interface AgentProcess {
  readonly child: ChildProcess;
  readonly mark: string;
}

/** Starts `command` under `sh -c` in its own process group: stdin and stdout piped, stderr passed through. */
export function spawnAgentProcess(command: string): AgentProcess {
  const mark = `${process.pid}.${++started}.${process.hrtime.bigint()}`;
  const child = spawn(command, { shell: true, detached: process.platform !== 'win32', stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, [AGENT_MARK_VARIABLE]: mark } });
  child.stdin?.on('error', () => {});
  return { child, mark };
}

const PROC = '/proc';

/** One process as /proc/<pid>/stat gives it. */
interface ProcInfo {
  readonly ppid: number;
  readonly pgrp: number;
  /** R, S, D, Z (zombie: dead, not yet reaped), … */
  readonly state: string;
}

/** Every process, from /proc/<pid>/stat. */
function processTable(): Map<number, ProcInfo> {
  const out = new Map<number, ProcInfo>();
  let names: string[];
  try {
    names = readdirSync(PROC);
  } catch {
    return out;
  }
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const stat = readFileSync(`${PROC}/${n}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(n), { state: rest[0] ?? '?', ppid: Number(rest[1]), pgrp: Number(rest[2]) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function hasMark(pid: number, mark: string): boolean {
  try {
    return readFileSync(`${PROC}/${pid}/environ`).includes(`${AGENT_MARK_VARIABLE}=${mark}\0`);
  } catch {
    return false;
  }
}

/**
 * The live processes of an agent: its group (led by `leader`), the leader's descendants, and every
 * process carrying its mark with its descendants (zombies, already dead, are left out). Empty where
 * there is no /proc.
 */
export function agentProcesses(leader: number | undefined, mark: string): number[] {
  if (!existsSync(PROC)) return [];
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const found = new Set<number>();
  const walk = (pid: number): void => {
    if (found.has(pid) || pid === process.pid) return;
    found.add(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  for (const [pid, info] of table) if (leader !== undefined && (pid === leader || info.pgrp === leader)) walk(pid);
  for (const pid of table.keys()) if (!found.has(pid) && pid !== process.pid && hasMark(pid, mark)) walk(pid);
  return [...found].filter((p) => table.get(p)?.state !== 'Z');
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * Ends an agent process and everything it started (see the module description): SIGTERM, then
 * SIGKILL after `graceMs` for what is left. Resolves once nothing of it is alive (where /proc can
 * tell; elsewhere when the leader has exited), or after the SIGKILL round.
 */
export async function terminateAgentProcess(p: AgentProcess, graceMs = 500): Promise<void> {
  const { child, mark } = p;
  child.stdout?.destroy();
  child.stdin?.destroy();
  child.unref();
  const leader = child.pid;
  const proc = existsSync(PROC);
  const everyone = (sig: NodeJS.Signals): void => {
    if (leader !== undefined && process.platform !== 'win32') signal(-leader, sig);
    else if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    for (const pid of agentProcesses(leader, mark)) signal(pid, sig);
  };
  everyone('SIGTERM');
  const deadline = Date.now() + graceMs;
  for (let wait = 2; Date.now() < deadline; wait = Math.min(wait * 2, 50)) {
    // The leader exited *and was reaped* by us (its exit code is known): else it would stay a zombie.
    const reaped = child.exitCode !== null || child.signalCode !== null;
    if (reaped && (!proc || agentProcesses(leader, mark).length === 0)) return;
    await new Promise((r) => setTimeout(r, wait));
  }
  everyone('SIGKILL');
}
