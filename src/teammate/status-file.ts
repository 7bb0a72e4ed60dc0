import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import type { Usage } from '../model/types.js';
import { AgentStatusSchema, canTransition, type AgentStatus, type TeammateState } from './types.js';

export const agentsStateDir = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'agents');

/**
 * A teammate's status file: state, task, heartbeat, turns, tokens, cost.
 * Written atomically on every change and on every heartbeat, so `teamd status`
 * can tell idle (fresh heartbeat, no task) from working from dead (stale).
 */
export class StatusFile {
  private status: AgentStatus;

  constructor(
    private readonly repoRoot: string,
    init: { name: string; model: string; restarts: number },
  ) {
    const now = new Date().toISOString();
    this.status = {
      name: init.name,
      state: 'starting',
      pid: process.pid,
      task: null,
      heartbeat: now,
      startedAt: now,
      turns: 0,
      tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      costUsd: 0,
      model: init.model,
      restarts: init.restarts,
    };
  }

  get state(): TeammateState {
    return this.status.state;
  }

  get current(): AgentStatus {
    return this.status;
  }

  /** Moves to `state` if the lifecycle allows it; returns false (and changes nothing) otherwise. */
  async transition(state: TeammateState, task: string | null, note?: string): Promise<boolean> {
    if (!canTransition(this.status.state, state)) return false;
    this.status = { ...this.status, state, task, note };
    await this.write();
    return true;
  }

  addUsage(turns: number, usage: Usage, costUsd: number): void {
    const t = this.status.tokens;
    this.status.turns += turns;
    this.status.costUsd += costUsd;
    this.status.tokens = {
      input: t.input + usage.input_tokens,
      output: t.output + usage.output_tokens,
      cacheRead: t.cacheRead + usage.cache_read_input_tokens,
      cacheWrite: t.cacheWrite + usage.cache_creation_input_tokens,
    };
  }

  async heartbeat(): Promise<void> {
    await this.write();
  }

  private async write(): Promise<void> {
    this.status.heartbeat = new Date().toISOString();
    try {
      await writeFileAtomic(join(agentsStateDir(this.repoRoot), `${this.status.name}.json`), JSON.stringify(this.status, null, 2), { durable: false });
    } catch {
      // status is an observer; a failed write is retried at the next heartbeat
    }
  }
}

/** Every teammate status file (bad ones skipped). */
export function readAgentStatuses(repoRoot: string): AgentStatus[] {
  const dir = agentsStateDir(repoRoot);
  if (!existsSync(dir)) return [];
  const out: AgentStatus[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
    try {
      const parsed = AgentStatusSchema.safeParse(JSON.parse(readFileSync(join(dir, f), 'utf8')));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // a half-written file cannot exist (atomic writes); anything else is foreign
    }
  }
  return out;
}
