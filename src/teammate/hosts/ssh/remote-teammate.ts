/**
 * The teammate process on the remote: the command that starts it over ssh
 * (its stdin/stdout are the lead⇄teammate channel, as the process host's are),
 * and the session that ends it. The channel closing ends it too: the remote
 * teammate exits when its stdin ends. The explicit end is for what survives
 * that (a wedged process, the process groups its commands started), at stop
 * and when a teammate is restarted after a dropped connection.
 */
import type { Outcome } from '../../../store/types.js';
import { remoteRoot, shellQuote, sshArgv } from './argv.js';
import { runSsh } from './exec.js';
import { endTeammateScript, startTeammateScript } from './scripts.js';
import type { SshHostConfig } from './types.js';

export interface SpawnCommand {
  command: string;
  args: string[];
}

/** `ssh … target sh -c '… exec <teamdBin> teammate --stdio <args>'`: what the process host spawns instead of a local teamd. */
export function remoteTeammateCommand(config: SshHostConfig, teamId: string, name: string, args: readonly string[] = []): SpawnCommand {
  const command = [config.teamdBin, 'teammate', '--stdio', ...args.map(shellQuote)].join(' ');
  return { command: 'ssh', args: sshArgv(config, startTeammateScript(remoteRoot(config, teamId), name, command)) };
}

/** Ends the remote teammate `name` and the process groups `pgids` its commands started there. */
export async function endRemoteTeammate(
  config: SshHostConfig,
  teamId: string,
  name: string,
  pgids: readonly number[] = [],
): Promise<Outcome<null>> {
  const r = await runSsh(config, `end teammate ${name}`, endTeammateScript(remoteRoot(config, teamId), name, pgids), { timeoutMs: 30_000 });
  return r.ok ? { ok: true, value: null } : r;
}
