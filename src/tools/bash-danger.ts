/**
 * Commands that must never run without a person agreeing (dangerous) or at
 * all (catastrophic): deleting the file system or home, formatting disks,
 * force-pushing, piping downloads into a shell, writing outside the root.
 */
import path from 'node:path';
import { effectiveCommand, hasFlag, operands } from './bash-words.js';

export interface Danger {
  reason: string;
  /** Destructive beyond repair: denied even when permissions are bypassed. */
  catastrophic: boolean;
}

/** Is this path argument outside the working directory? Supplied by the classifier (it knows root and cwd). */
export type OutsideCheck = (p: string) => boolean;

const SYSTEM_DIRS =
  /^\/(bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|sbin|srv|sys|usr|var|Users|System|Library|Applications)?\/?\*?$/;
const HOME = /^(~|\$HOME|\$\{HOME\})\/?\*?$/;

type Rule = (args: string[], outside: OutsideCheck) => Danger | null;

const RULES: Record<string, Rule> = {
  rm: rmDanger,
  git: gitDanger,
  dd: (args, outside) => {
    const target = args.find((a) => a.startsWith('of='))?.slice(3);
    if (target === undefined) return null;
    if (target.startsWith('/dev/') && !/^\/dev\/(null|zero|stdout|stderr)$/.test(target))
      return catastrophic(`dd writes onto the device ${target}`);
    return outside(target) ? dangerous(`dd writes to ${target}, outside the working directory`) : null;
  },
  chmod: (args, outside) => permissionChange('chmod', args, outside),
  chown: (args, outside) => permissionChange('chown', args, outside),
  chgrp: (args, outside) => permissionChange('chgrp', args, outside),
  kill: (args) =>
    operands(args).includes('-1') || args.includes('-1')
      ? catastrophic('kills every process of the user (kill -1)')
      : null,
  killall: () => dangerous('kills processes by name'),
  pkill: () => dangerous('kills processes by pattern'),
  find: (args) =>
    hasDeleteAction(args) && SYSTEM_DIRS.test(args[0] ?? '.')
      ? catastrophic(`find ${args[0]} -delete deletes system files`)
      : null,
  npm: (args) =>
    args[0] === 'publish' || args[0] === 'unpublish'
      ? dangerous(`npm ${args[0]} changes a public registry`)
      : null,
  crontab: (args) => (hasFlag(args, 'r') ? dangerous('removes the user crontab') : null),
};

for (const name of ['mkfs', 'fdisk', 'sfdisk', 'parted', 'wipefs', 'mkswap'])
  RULES[name] = () => catastrophic(`${name} formats or partitions a disk`);
for (const name of ['shutdown', 'reboot', 'halt', 'poweroff'])
  RULES[name] = () => catastrophic(`${name} stops the machine`);
for (const name of [
  'mv',
  'cp',
  'touch',
  'mkdir',
  'rmdir',
  'ln',
  'tee',
  'truncate',
  'install',
  'rsync',
  'unlink',
  'shred',
]) {
  RULES[name] = (args, outside) => writesOutside(name, args, outside);
}

export function commandDanger(words: string[], outside: OutsideCheck): Danger | null {
  const [name, ...args] = words;
  if (name === undefined) return null;
  const base = path.basename(name);
  if (base === 'sudo' || base === 'doas' || base === 'su') return elevated(base, args, outside);
  if (base.startsWith('mkfs.')) return catastrophic(`${base} formats a disk`);
  return Object.hasOwn(RULES, base) ? (RULES[base]?.(args, outside) ?? null) : null;
}

function elevated(name: string, args: string[], outside: OutsideCheck): Danger {
  const inner = commandDanger(effectiveCommand(withoutSudoOptions(args)), outside);
  return inner?.catastrophic ? inner : dangerous(`runs with elevated privileges (${name})`);
}

function withoutSudoOptions(args: string[]): string[] {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-'))
    i += /^-[ugCDhpUrt]$/.test(args[i] as string) ? 2 : 1;
  return args.slice(i);
}

function rmDanger(args: string[], outside: OutsideCheck): Danger | null {
  const recursive = hasFlag(args, 'r', ['--recursive']) || hasFlag(args, 'R');
  const targets = operands(args);
  const wiped = targets.find((t) => SYSTEM_DIRS.test(t) || HOME.test(t));
  if (wiped !== undefined && recursive)
    return catastrophic(`rm -r of ${wiped} deletes the system or the home folder`);
  const escaping = targets.find((t) => outside(t));
  if (escaping !== undefined) return dangerous(`rm deletes ${escaping}, outside the working directory`);
  if (!recursive) return null;
  const whole = targets.find((t) => /^(\.|\.\/|\*|\.\/\*|\.\*)$/.test(t));
  if (whole !== undefined) return dangerous(`rm -r of ${whole} deletes the whole working directory`);
  const unexpanded = targets.find((t) => /^\$\{?\w+\}?\/\*?$/.test(t));
  return unexpanded === undefined
    ? null
    : dangerous(`rm -r of ${unexpanded}: with the variable empty it would delete from /`);
}

function gitDanger(args: string[]): Danger | null {
  const sub = args.find((a) => !a.startsWith('-'));
  const rest = sub === undefined ? [] : args.slice(args.indexOf(sub) + 1);
  if (sub === 'push' && isForcePush(rest)) return dangerous('git push --force rewrites the remote history');
  if (sub === 'push' && rest.includes('--mirror'))
    return dangerous('git push --mirror overwrites every remote ref');
  if (sub === 'reset' && rest.includes('--hard'))
    return dangerous('git reset --hard discards uncommitted changes');
  if (sub === 'clean' && hasFlag(rest, 'f', ['--force']) && !hasFlag(rest, 'n', ['--dry-run'])) {
    return dangerous('git clean -f deletes untracked files');
  }
  return null;
}

function isForcePush(args: string[]): boolean {
  const forceFlags = ['--force', '--force-with-lease', '--force-if-includes'];
  return (
    hasFlag(args, 'f', forceFlags) ||
    args.some((a) => a.startsWith('--force')) ||
    operands(args).some((a) => a.startsWith('+'))
  );
}

function permissionChange(name: string, args: string[], outside: OutsideCheck): Danger | null {
  const targets = operands(args).slice(1); // the first operand is the mode or owner
  const wiped = targets.find((t) => SYSTEM_DIRS.test(t) || HOME.test(t));
  if (wiped !== undefined && hasFlag(args, 'R', ['--recursive']))
    return catastrophic(`${name} -R of ${wiped} changes the whole system`);
  const escaping = targets.find((t) => outside(t));
  return escaping === undefined
    ? null
    : dangerous(`${name} changes ${escaping}, outside the working directory`);
}

function writesOutside(name: string, args: string[], outside: OutsideCheck): Danger | null {
  const targets = operands(args);
  // cp, ln, install, rsync read their sources: only the last operand is written.
  const written = ['cp', 'ln', 'install', 'rsync'].includes(name) ? targets.slice(-1) : targets;
  const escaping = written.find((t) => outside(t));
  return escaping === undefined
    ? null
    : dangerous(`${name} writes to ${escaping}, outside the working directory`);
}

function hasDeleteAction(args: string[]): boolean {
  return args.includes('-delete') || args.some((a, i) => a === '-exec' && args[i + 1] === 'rm');
}

function dangerous(reason: string): Danger {
  return { reason, catastrophic: false };
}

function catastrophic(reason: string): Danger {
  return { reason, catastrophic: true };
}
