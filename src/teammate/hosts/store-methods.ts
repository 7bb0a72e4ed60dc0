/**
 * The store methods a teammate out of the lead's process may ask the lead to
 * run, and where in their arguments the acting agent is named: the lead
 * refuses a call that names another agent (a teammate claims, completes and
 * reads mail only as itself).
 */
export type StoreName = 'tasks' | 'mailbox' | 'files' | 'cron';

/** Method → the index of the argument that must be the caller's name (null: none). */
const TASK_AGENT_ARG: Record<string, number | null> = {
  get: null,
  refresh: null,
  create: null,
  patch: null,
  claim: 1,
  claimNext: 0,
  renewLease: 1,
  complete: 1,
  fail: 1,
  release: 1,
  cancel: 1,
  retry: 1,
  addNote: 1,
  edit: 2,
};

/** Mail: the agent is the first argument, or the `from` of the message sent. */
const MAILBOX_AGENT_ARG: Record<string, number | 'from' | null> = {
  send: 'from',
  record: 'from',
  take: 0,
  ack: 0,
  peek: 0,
  list: 0,
  dequeue: 0,
  markRead: 0,
  clear: 0,
  history: 0,
  recoverStale: 0,
  inboxSizes: null,
  agents: null,
};

/** The task methods forwarded to the lead (`update` becomes `get` + `patch`: a function does not cross). */
export const TASK_CALLS: ReadonlySet<string> = new Set(Object.keys(TASK_AGENT_ARG).filter((m) => m !== 'get' && m !== 'patch'));
export const MAILBOX_CALLS: ReadonlySet<string> = new Set(Object.keys(MAILBOX_AGENT_ARG));
export const FILE_CALLS: ReadonlySet<string> = new Set(['status', 'request', 'commit', 'transcript', 'memory']);
/** The cron tools' service (`CronToolService`): a teammate may do what a thread teammate does with `.cron/`. */
export const CRON_CALLS: ReadonlySet<string> = new Set(['create', 'list', 'remove']);

/** Why the lead refuses `caller`'s call, or undefined when it may run. */
export function callRefusal(caller: string, store: StoreName, method: string, args: unknown[]): string | undefined {
  const table: Record<string, number | 'from' | null> = store === 'tasks' ? TASK_AGENT_ARG : store === 'mailbox' ? MAILBOX_AGENT_ARG : {};
  if (store === 'files' || store === 'cron')
    return (store === 'files' ? FILE_CALLS : CRON_CALLS).has(method) ? undefined : `${store}.${method} is not a call a teammate may make`;
  if (!Object.hasOwn(table, method)) return `${store}.${method} is not a call a teammate may make`;
  const at = table[method];
  if (at === null || at === undefined) return undefined;
  const named = at === 'from' ? (args[0] as { from?: unknown } | undefined)?.from : args[at];
  return named === caller ? undefined : `${store}.${method} names "${String(named)}", not the caller "${caller}"`;
}
