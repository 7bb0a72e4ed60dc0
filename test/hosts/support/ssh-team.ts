// An ssh team for tests: the host config that reaches the test's sshd as the remote user, whose
// `teamdBin` runs this checkout's teammate entry (TypeScript through tsx, readable by that user),
// and the remote folder of the run, removed afterwards.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../../../src/teammate/hosts/ssh/argv.js';
import { runSsh } from '../../../src/teammate/hosts/ssh/exec.js';
import { SshHostConfigSchema, type SshHostConfig } from '../../../src/teammate/hosts/ssh/types.js';
import { afterAll, beforeAll } from 'vitest';
import { startSshd, type SshdStart, type SshServer } from '../../support/sshd.js';

/** `node --import tsx <checkout>/src/teammate/hosts/stdio-main.ts`: what `teamd teammate` runs, from this checkout. */
export function checkoutTeamdBin(): string {
  const entry = fileURLToPath(new URL('../../../src/teammate/hosts/stdio-main.ts', import.meta.url));
  const tsx = fileURLToPath(import.meta.resolve('tsx'));
  return [process.execPath, '--import', tsx, entry].map(shellQuote).join(' ');
}

export interface SshTeamHost {
  /** For `.team/config.json`: `{ host: … }`. */
  host: Record<string, unknown>;
  config: SshHostConfig;
  /** The remote folder of this run (absolute, in the remote user's home). */
  remoteDir: string;
  cleanup(): Promise<void>;
}

/** A stand-in for `teamd teammate` that only runs `teamd`'s stdio entry; `teamdBin` stands in for "teamd". */
export function sshTeamHost(sshd: SshServer, tag: string): SshTeamHost {
  // `<teamdBin> teammate --stdio`: stdio-main ignores its extra arguments.
  const remoteDirName = `.teamd-${tag}-${process.pid}`;
  const host = {
    kind: 'ssh',
    target: sshd.target,
    port: sshd.port,
    identity: sshd.identity,
    knownHosts: sshd.knownHosts,
    remoteDir: remoteDirName,
    teamdBin: checkoutTeamdBin(),
  };
  const config = SshHostConfigSchema.parse(host);
  return {
    host,
    config,
    remoteDir: join(sshd.user.home, remoteDirName),
    cleanup: async () => void (await runSsh(config, 'cleanup', `rm -rf "$HOME"/${shellQuote(remoteDirName)}`)),
  };
}

export interface SshFixture {
  /** The server of this file (a reason to skip when it could not start). */
  sshd: SshdStart;
  /** Its ssh host for teams; set once the server runs. */
  remote: SshTeamHost;
}

/** One sshd per test file, started before its tests and stopped (its remote folder removed) after them. */
export function sshServerPerFile(tag: string): SshFixture {
  const fixture = { sshd: { ok: false, reason: 'sshd not started yet' } } as SshFixture;
  beforeAll(async () => {
    fixture.sshd = await startSshd();
    if (fixture.sshd.ok) fixture.remote = sshTeamHost(fixture.sshd, tag);
  });
  afterAll(async () => {
    if (!fixture.sshd.ok) return;
    await fixture.remote.cleanup();
    await fixture.sshd.stop();
  });
  return fixture;
}
