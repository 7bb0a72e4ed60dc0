/**
 * Which host runs a teammate: its own `host`, else the team's, else a thread.
 * Hosts are made by kind from a table, so a host kind built elsewhere (ssh)
 * joins with one `registerHost` call. A kind that cannot run here (bubblewrap
 * missing) is refused with an error that says what to install or which host to use.
 */
import type { HostConfig, TeamConfig, TeammateConfig } from '../../config/schema.js';
import type { Outcome } from '../../store/types.js';
import { ProcessHost } from './process.js';
import { makeSandboxHost } from './sandbox.js';
import { makeSshHost } from './ssh/host.js';
import { ThreadHost } from './thread.js';
import type { HostKind, TeammateHost } from './types.js';

export type HostFactory = (config: HostConfig, repoRoot: string) => Outcome<TeammateHost>;

const factories = new Map<HostKind, HostFactory>([
  ['thread', () => ({ ok: true, value: new ThreadHost() })],
  ['process', () => ({ ok: true, value: new ProcessHost() })],
  ['sandbox', (config, repoRoot) => (config.kind === 'sandbox' ? makeSandboxHost(config, repoRoot) : { ok: false, error: 'not a sandbox config' })],
  ['ssh', makeSshHost],
]);

/** Adds (or replaces) the factory of one host kind. */
export function registerHost(kind: HostKind, factory: HostFactory): void {
  factories.set(kind, factory);
}

/** The host config that holds for `teammate`: its own, else the team's, else `thread`. */
export const hostConfigOf = (team: TeamConfig, teammate: TeammateConfig | undefined): HostConfig =>
  teammate?.host ?? team.host ?? { kind: 'thread' };

/** A host for `config`, or why there is none here. */
export function makeHost(config: HostConfig, repoRoot: string): Outcome<TeammateHost> {
  const factory = factories.get(config.kind);
  if (!factory) return { ok: false, error: `host "${config.kind}" is not available in this build of teamd (use "thread" or "process")` };
  return factory(config, repoRoot);
}

export type { StartedTeammate, TeammateChannel, TeammateHost, TeammatePort, HostKind } from './types.js';
