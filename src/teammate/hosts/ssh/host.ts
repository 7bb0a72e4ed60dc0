/**
 * The `ssh` host: each teammate is `teamd teammate --stdio` on another
 * machine, over one OpenSSH session (channel.ts). Like the process host, it
 * writes none of the team's files and holds no key; unlike it, its process
 * groups are the remote's, so the lead never kills them here (the channel
 * ends them over there).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HostConfig } from '../../../config/schema.js';
import type { Outcome } from '../../../store/types.js';
import type { WorkerData } from '../../types.js';
import type { StartedTeammate, TeammateHost } from '../types.js';
import { teamIdOf } from './carry.js';
import { SshChannel } from './channel.js';
import type { SshHostConfig } from './types.js';

export class SshHost implements TeammateHost {
  readonly kind = 'ssh' as const;
  private readonly teamId: string;

  constructor(
    readonly config: SshHostConfig,
    repoRoot: string,
  ) {
    this.teamId = teamIdOf(repoRoot);
  }

  start(data: WorkerData): StartedTeammate {
    const channel = new SshChannel(this.config, this.teamId, { ...data, writesViaLead: true });
    return { channel, kind: this.kind, writesViaLead: true, sharesProcessGroups: false };
  }
}

/** The factory of hosts/index.ts: the config was checked when it was loaded (config/ssh-host.ts). */
export function makeSshHost(config: HostConfig, repoRoot: string): Outcome<TeammateHost> {
  if (config.kind !== 'ssh') return { ok: false, error: `not an ssh host: ${config.kind}` };
  if (!hasSshClient()) return { ok: false, error: 'host "ssh" needs the OpenSSH client (`ssh` on PATH: apt-get install openssh-client, brew install openssh)' };
  return { ok: true, value: new SshHost(config, repoRoot) };
}

function hasSshClient(): boolean {
  const dirs = (process.env.PATH ?? '').split(':').filter((d) => d !== '');
  return dirs.some((d) => existsSync(join(d, 'ssh')));
}
