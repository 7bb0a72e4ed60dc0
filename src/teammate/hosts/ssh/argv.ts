/**
 * The OpenSSH client's command line for one session. ssh joins the remote
 * command's words with spaces and hands them to the remote user's login
 * shell, so the command is always one `sh -c '<script>'` with every value in
 * the script single-quoted here: the login shell (bash, zsh, fish…) sees one
 * quoted word, and the script runs in a POSIX sh whatever it is.
 */
import type { SshHostConfig } from './types.js';

/** `value` as one single-quoted POSIX shell word. */
export const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** The client options: no prompt ever (BatchMode), host key checked, keepalives, no tty, no escape character. */
export function sshOptions(config: SshHostConfig): string[] {
  const options = [
    '-T',
    '-e', 'none',
    '-o', 'BatchMode=yes',
    '-o', 'StrictHostKeyChecking=yes',
    '-o', `ConnectTimeout=${config.connectTimeoutS}`,
    '-o', `ServerAliveInterval=${config.serverAliveIntervalS}`,
    '-o', 'ServerAliveCountMax=3',
    '-o', 'LogLevel=ERROR',
  ];
  if (config.port !== undefined) options.push('-p', String(config.port));
  if (config.identity !== undefined) options.push('-i', config.identity, '-o', 'IdentitiesOnly=yes');
  if (config.knownHosts !== undefined) options.push('-o', `UserKnownHostsFile=${config.knownHosts}`);
  return options;
}

/** `ssh <options> -- <target> sh -c '<script>'`, as the argv after `ssh`. */
export const sshArgv = (config: SshHostConfig, script: string): string[] => [
  ...sshOptions(config),
  '--',
  config.target,
  `sh -c ${shellQuote(script)}`,
];

/** The teamd root on the remote for one team, as a shell expression (`"$HOME"/'.teamd-remote'/'<team>'`). */
export function remoteRoot(config: SshHostConfig, teamId: string): string {
  const base = config.remoteDir.startsWith('/') ? shellQuote(config.remoteDir) : `"$HOME"/${shellQuote(config.remoteDir)}`;
  return `${base}/${shellQuote(teamId)}`;
}
