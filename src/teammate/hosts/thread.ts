/** The `thread` host, the default: the teammate in a worker thread of the lead (a `Worker` is a channel as it is). */
import { spawnWorker, teammateEntryUrl } from '../../lead/spawn-worker.js';
import type { WorkerData } from '../types.js';
import type { StartedTeammate, TeammateHost } from './types.js';

export class ThreadHost implements TeammateHost {
  readonly kind = 'thread' as const;

  start(data: WorkerData): StartedTeammate {
    return { channel: spawnWorker(teammateEntryUrl(), data), kind: this.kind, writesViaLead: false, sharesProcessGroups: true };
  }
}
