/**
 * The ssh row of bench/hosts: a real sshd on 127.0.0.1 (test/support/sshd.ts)
 * for another local user, who runs this checkout's compiled teammate entry
 * (dist/). Only as root with sshd installed; otherwise no row, and a line
 * on stderr saying why. The server ends with this process (its handles are
 * unref'd so the bench can finish; the exit handler kills it and removes
 * its files and the remote folder).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../../src/teammate/hosts/ssh/argv.js';
import { startSshd } from '../../test/support/sshd.js';

const ENTRY = fileURLToPath(new URL('../../dist/teammate/hosts/stdio-main.js', import.meta.url));

/** The ssh host config of the bench, or [] when it cannot run here. */
export async function sshBenchHosts(): Promise<{ label: string; config: object }[]> {
  if (!existsSync(ENTRY)) return skip(`${ENTRY} is missing (npm run build)`);
  const sshd = await startSshd();
  if (!sshd.ok) return skip(sshd.reason);
  const remoteDir = `.teamd-bench-${process.pid}`;
  sshd.unref();
  process.once('exit', () => {
    sshd.kill();
    rmSync(join(sshd.user.home, remoteDir), { recursive: true, force: true }); // the "remote" is this machine
  });
  const config = {
    kind: 'ssh',
    target: sshd.target,
    port: sshd.port,
    identity: sshd.identity,
    knownHosts: sshd.knownHosts,
    remoteDir,
    teamdBin: [process.execPath, ENTRY].map(shellQuote).join(' '),
  };
  return [{ label: 'ssh (127.0.0.1)', config }];
}

function skip(reason: string): [] {
  process.stderr.write(`bench/hosts: no ssh row: ${reason}\n`);
  return [];
}
