import type { HookAsyncOutput } from '../hooks/types.js';
import type { StatusFile } from './status-file.js';
import type { MailDesk } from './mail-desk.js';
import type { TeammateDeps } from './teammate.js';
import type { TeammateState } from './types.js';
import type { Waiters } from './waiters.js';

/** A run the teammate is in the middle of (a task, or answering mail). */
export interface ActiveRun {
  interrupt: () => void;
  done: Promise<void>;
}

/** What a teammate's parts (task work, mail, protocols) see of it. */
export interface TeammateHost {
  readonly name: string;
  readonly deps: TeammateDeps;
  readonly status: StatusFile;
  readonly waiters: Waiters;
  readonly desk: MailDesk;
  readonly stopping: boolean;
  /** Shutdown requests waiting for this teammate's model to answer: request id → requester. */
  readonly shutdownRequests: Map<string, string>;
  /** Set once the plan of the current task is approved (plan mode). */
  planApproved: boolean;
  /** Plans rejected on the current task; at the team's `maxAttempts` the task fails. */
  planRejections: number;
  setState(state: TeammateState, task: string | null, note?: string): Promise<void>;
  /** A background hook's `asyncRewake` result for a session that has ended: wake for it (hook-wake.ts). */
  hookWake(output: HookAsyncOutput): void;
  stop(reason: string): void;
}
