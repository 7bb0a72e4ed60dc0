/**
 * The lead's side of teammates that run out of its process (teammate/hosts):
 * which host each teammate gets, and the writes the lead makes for them.
 */
import type { TeamConfig } from '../config/schema.js';
import type { EventLog } from '../observe/event-log.js';
import type { TeamEvent } from '../observe/types.js';
import { hostConfigOf, makeHost } from '../teammate/hosts/index.js';
import type { TeammateHost } from '../teammate/hosts/types.js';
import type { Outcome } from '../store/types.js';

/** One host per teammate of `config`; the first that cannot run here fails the start, naming the teammate. */
export function hostsFor(config: TeamConfig, repoRoot: string): Outcome<Map<string, TeammateHost>> {
  const hosts = new Map<string, TeammateHost>();
  for (const t of config.teammates) {
    const hostConfig = hostConfigOf(config, t);
    if (hostConfig.kind === 'sandbox' && config.worktrees.mode === 'off')
      return { ok: false, error: `teammate ${t.name}: host "sandbox" needs worktrees (worktrees.mode "per-task" or "per-teammate"): with "off" it would work in the repository, which the sandbox makes read-only` };
    const host = makeHost(hostConfig, repoRoot);
    if (!host.ok) return { ok: false, error: `teammate ${t.name}: ${host.error}` };
    hosts.set(t.name, host.value);
  }
  return { ok: true, value: hosts };
}

/**
 * An event of a teammate that cannot write the log itself. Its time is kept
 * (when it is a time); its `agent`, when it names one, is forced to the
 * teammate's: a teammate speaks only for itself.
 */
export function appendTeammateEvent(log: EventLog, name: string, event: Record<string, unknown>): void {
  const { ts, ...rest } = event;
  const at = typeof ts === 'string' && !Number.isNaN(Date.parse(ts)) ? new Date(ts) : undefined;
  const own = 'agent' in rest ? { ...rest, agent: name } : rest;
  log.append(own as unknown as TeamEvent, at);
}
