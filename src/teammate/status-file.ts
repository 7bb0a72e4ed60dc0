import { existsSync, readdirSync } from 'node:fs';
import { readStateSync } from '../store/state-file.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import type { Usage } from '../model/types.js';
import { AgentStatusSchema, canTransition, type AgentStatus, type TeammateState } from './types.js';

export const agentsStateDir = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'agents');

/**
 * Changes closer together than this are written as one: a teammate running
 * one-turn tasks changes state many times a second, and the file is a
 * snapshot for observers (the lead learns each change by message at once).
 */
const COALESCE_MS = 500;
const FINAL: ReadonlySet<TeammateState> = new Set(['stopping', 'stopped', 'dead']);

/**
 * A teammate's status file: state, task, heartbeat, turns, tokens, cost.
 * Written atomically on a change (at most every 500 ms; a stop at once) and
 * on every heartbeat, so `teamd status` can tell idle (fresh heartbeat, no
 * task) from working from dead (stale).
 */
export class StatusFile {
  private status: AgentStatus;
  private lastWrite = 0;
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly repoRoot: string,
    init: { name: string; model: string; restarts: number; carried?: Pick<AgentStatus, 'startedAt' | 'turns' | 'tokens' | 'costUsd'> },
    /** Writes the status (the lead does it for a teammate out of its process); default: the file here. */
    private readonly writeOut?: (status: AgentStatus) => Promise<void>,
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
      ...init.carried,
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
    await this.changed();
    return true;
  }

  private async changed(): Promise<void> {
    if (FINAL.has(this.status.state)) return this.write();
    if (this.pending) return; // the write already scheduled carries this change
    const wait = this.lastWrite + COALESCE_MS - Date.now();
    if (wait <= 0) return this.write();
    this.pending = setTimeout(() => void this.write(), wait);
    this.pending.unref();
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
    clearTimeout(this.pending);
    this.pending = undefined;
    this.lastWrite = Date.now();
    this.status.heartbeat = new Date().toISOString();
    try {
      if (this.writeOut) return await this.writeOut({ ...this.status });
      await writeFileAtomic(
        join(agentsStateDir(this.repoRoot), `${this.status.name}.json`),
        JSON.stringify(this.status, null, 2),
        { durable: false },
      );
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
    // Anything but a valid status (a FIFO, a device link, a deep or huge file) is skipped unread and recorded.
    const read = readStateSync(join(dir, f), AgentStatusSchema);
    if (read.kind === 'ok') out.push(read.value);
  }
  return out;
}
