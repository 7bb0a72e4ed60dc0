/**
 * An engine runs the agent of one teammate's task (or mail session); the
 * teammate's loop around it — claims, mail, completion, the merge hand-off —
 * stays teamd's (src/teammate/). Two engines exist: `teamd` (teamd's own
 * AgentRuntime) and `claude-code` (the `claude` CLI in stream-json mode).
 * docs/ENGINES.md compares them and says how to add the next one.
 */
import type { AgentRuntime } from '../../agent/runtime.js';
import type { ResultEvent } from '../../agent/types.js';
import type { TeammateHost } from '../host.js';
import type { RuntimeSpec } from '../runtime-factory.js';

export type { Engine as EngineName } from '../../config/schema.js';

/** One agent session of a teammate: a conversation that takes user turns. */
export interface EngineSession {
  /**
   * One user turn, run to its end. Resolves with the run's result in teamd's
   * shape (usage per model, cost of this turn), or null when the run was
   * interrupted before it produced one. Rejects with `EngineCrash` when the
   * agent's process died on its own: a crashed teammate, not a failed task.
   */
  submit(text: string): Promise<ResultEvent | null>;
  /** Mail that arrived while a turn runs: it enters the conversation at the agent's next chance. */
  enqueue(text: string): void;
  /** Stops the turn in progress (its `submit` resolves with null or an aborted result). */
  interrupt(): void;
  /** Ends the session and whatever process it holds. */
  close(): Promise<void>;
  /** teamd's own runtime, for what only it has (hook session fields, memories); null for other engines. */
  readonly runtime: AgentRuntime | null;
}

/** Starts a session for a teammate: where it works and where its events go. */
export type StartEngine = (host: TeammateHost, spec: RuntimeSpec) => EngineSession;

/**
 * The agent's process ended without being asked to, mid-turn. The teammate
 * lets it propagate: its worker dies and the lead's crash path reclaims the
 * task and restarts the teammate, as for any crash.
 */
export class EngineCrash extends Error {
  constructor(
    readonly engine: string,
    readonly detail: string,
  ) {
    super(`${engine} process died: ${detail}`);
    this.name = 'EngineCrash';
  }
}
