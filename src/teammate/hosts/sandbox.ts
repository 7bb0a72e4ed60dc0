/**
 * The `sandbox` host: the process host inside bubblewrap (docs/HOSTS.md has
 * the threat model). What the teammate and every command it runs see:
 *   - the whole file system read-only, with a private /tmp and an empty home;
 *   - the repository read-only, its `.team/state` replaced by an empty folder
 *     (no status, requests, pid or log of the lead), except the teammate's own
 *     transcript folder, which it writes;
 *   - of `.worktrees/`, only the worktree the lead granted it writable: a
 *     fresh sandbox per granted worktree (sandbox-channel.ts); the rest, and
 *     the repository's `.git`, read-only: the lead commits the worktree (store-calls.ts);
 *   - no network (`--unshare-all`): the model is reached over the stdio pipe;
 *   - its own pid namespace, ended with it (`--die-with-parent`).
 * Extra read-only and writable paths, and the network, are opt-in config.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { cacheDirs } from '../../cli/code-cache.js';
import { packageRoot } from '../../config/package-root.js';
import type { HostConfig } from '../../config/schema.js';
import { teamPaths } from '../../store/paths.js';
import type { Outcome } from '../../store/types.js';
import type { WorkerData } from '../types.js';
import { ProcessHost, stdioTeammateCommand, type Command } from './process.js';
import { SandboxChannel } from './sandbox-channel.js';
import type { StartedTeammate, TeammateHost } from './types.js';

export type SandboxConfig = Extract<HostConfig, { kind: 'sandbox' }>;

const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), ' +
  'or use host "process" (no sandbox) or "thread"';

/** `bwrap` on PATH, or null. */
export function findBwrap(path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) if (dir && existsSync(join(dir, 'bwrap'))) return join(dir, 'bwrap');
  return null;
}

/** A sandbox host, or the reason it cannot run here (not Linux, no bwrap, namespaces refused). */
export function makeSandboxHost(config: SandboxConfig, repoRoot: string, bwrap = findBwrap()): Outcome<TeammateHost> {
  if (process.platform !== 'linux') return { ok: false, error: `host "sandbox" needs Linux and bubblewrap (this is ${process.platform}): use host "process" or "thread"` };
  if (bwrap === null) return { ok: false, error: `host "sandbox" needs bubblewrap, and bwrap is not on PATH: ${INSTALL_HINT}` };
  const probe = spawnSync(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.status !== 0)
    return { ok: false, error: `host "sandbox": ${bwrap} cannot make a sandbox here (${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()}); ${INSTALL_HINT}` };
  return { ok: true, value: new SandboxHost(config, repoRoot, bwrap) };
}

export class SandboxHost implements TeammateHost {
  readonly kind = 'sandbox' as const;

  constructor(
    private readonly config: SandboxConfig,
    private readonly repoRoot: string,
    private readonly bwrap: string,
  ) {}

  start(data: WorkerData): StartedTeammate {
    const inner = stdioTeammateCommand();
    const launch = (d: WorkerData) => {
      const worktree = d.grantedWorktree?.path;
      const args = sandboxArgs({ ...this.config, repoRoot: this.repoRoot, name: d.teammate.name, home: homedir(), inner, worktree });
      return new ProcessHost(() => ({ file: this.bwrap, args })).start(d).channel;
    };
    // Its pids are the sandbox's namespace's: bwrap ends them with the sandbox.
    return { channel: new SandboxChannel(launch, { ...data, writesViaLead: true }), kind: this.kind, writesViaLead: true, sharesProcessGroups: false };
  }
}

export interface SandboxLayout extends Omit<SandboxConfig, 'kind'> {
  repoRoot: string;
  name: string;
  home: string;
  inner: Command;
  /** The one worktree bound writable (the granted one), or none: `.worktrees/` stays read-only. */
  worktree?: string;
}

/** bwrap's arguments, in order: a later mount covers an earlier one. Makes the folders it binds. */
export function sandboxArgs(o: SandboxLayout): string[] {
  const paths = teamPaths(o.repoRoot);
  mkdirSync(paths.worktrees, { recursive: true });
  const abs = (p: string): string => (p === '~' || p.startsWith('~/') ? join(o.home, p.slice(1)) : isAbsolute(p) ? p : resolve(o.repoRoot, p));
  const ro = (p: string): string[] => ['--ro-bind', p, p];
  const rw = (p: string): string[] => ['--bind', p, p];
  return [
    '--die-with-parent', '--new-session', '--unshare-all', ...(o.network ? ['--share-net'] : []),
    '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', o.home,
    ...ro(o.repoRoot), ...ro(codeRoot()), ...nodeRoot(o.inner.file).flatMap(ro),
    ...o.readOnly.map(abs).filter(existsSync).flatMap(ro),
    '--tmpfs', join(o.repoRoot, '.team', 'state'),
    ...(o.worktree ? rw(o.worktree) : []), // transcripts go to the lead, which writes them (hosts/transcript-client.ts)
    ...o.writable.map(abs).filter(existsSync).flatMap(rw),
    ...codeCaches(o.home).flatMap(ro), // after the writable ones: no `writable` entry may open them
    '--setenv', 'TMPDIR', '/tmp', '--chdir', o.repoRoot,
    '--', o.inner.file, ...o.inner.args,
  ];
}

/** The folder above node's (`/usr` of `/usr/bin/node`), seen read-only; none when that is `/`, already bound (rebinding it would cover /dev, /proc and /tmp). */
function nodeRoot(file: string): string[] {
  const root = dirname(dirname(file));
  return root === '/' ? [] : [root];
}

/**
 * teamd's V8 code caches (cli/code-cache.ts): V8 runs their data as code in
 * the next `teamd agent` or `status` on the host, so a teammate must never
 * write one — even with `writable: ["~"]`. Made before the sandbox starts
 * (a folder that did not exist could be made inside a writable home) and
 * seen read-only; one that cannot be made is left out (nor can it be written).
 * Made 0700, as the CLI makes them: a cache folder others may write is refused
 * (cli/cache-trust.ts).
 */
function codeCaches(home: string): string[] {
  return cacheDirs(join(codeRoot(), 'dist', 'cli'), { ...process.env, HOME: home }).filter((dir) => {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return true;
    } catch {
      return false;
    }
  });
}

/** The folder teamd runs from (its package), seen read-only even when it lives in the hidden home or /tmp. */
function codeRoot(): string {
  return packageRoot();
}
