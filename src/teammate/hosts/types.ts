/**
 * The seam between the lead and where a teammate runs (docs/HOSTS.md).
 *
 * A `TeammateHost` starts one teammate from its `WorkerData` and hands back a
 * `TeammateChannel`: the lead's end of the teammate, whatever carries it (a
 * worker thread's port, a child's stdin/stdout as JSON lines, the same inside
 * bubblewrap, an ssh session). Every host speaks the one protocol of
 * ../types.ts (`ToWorker` / `FromWorker`), validated with zod where it lands.
 *
 * Out-of-process hosts (`writesViaLead`) hold none of the team's files: the
 * teammate asks the lead for claims, task changes, mail take/ack, status and
 * permission-request writes, transcript lines, cron jobs and memories
 * (`store_call`, see store-calls.ts), and its events
 * are appended to the log by the lead. Model calls go through the lead for
 * every host, so no API key ever leaves the lead's process.
 */
import type { HostConfig } from '../../config/schema.js';
import type { FromWorker, ToWorker, WorkerData } from '../types.js';

export type HostKind = HostConfig['kind'];

/** The lead's end of one running teammate. Shaped like a `Worker`, which is one. */
export interface TeammateChannel {
  postMessage(message: ToWorker): void;
  on(event: 'message', listener: (raw: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Once, when the teammate is gone (its code; a channel that dropped counts as an exit). */
  on(event: 'exit', listener: (code: number) => void): unknown;
  /** Ends the teammate now (no goodbye); resolves once it is gone. */
  terminate(): Promise<unknown>;
}

/** What the pool needs to know of a started teammate besides its channel. */
export interface StartedTeammate {
  channel: TeammateChannel;
  kind: HostKind;
  /** The teammate cannot write the team's files: the lead writes for it (store calls, events). */
  writesViaLead: boolean;
  /**
   * The process group ids its commands report are this machine's and this
   * pid namespace's, so the lead may kill them when the teammate dies
   * (false in a sandbox's own pid namespace, or on another machine).
   */
  sharesProcessGroups: boolean;
}

export interface TeammateHost {
  readonly kind: HostKind;
  start(data: WorkerData): StartedTeammate;
}

/** The teammate's end of the channel (a worker's `parentPort`, or the stdio shim). */
export interface TeammatePort {
  postMessage(message: FromWorker): void;
  on(event: 'message', listener: (raw: unknown) => void): unknown;
  close(): void;
}

/** Environment variables never passed to a teammate out of the lead's process: keys and tokens stay in the lead. */
export const SECRET_ENV = /(API[_-]?KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH)/i;
