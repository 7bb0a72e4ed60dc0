/**
 * Classifies a bash command for the permission gate and for summaries:
 * is it read-only (safe to run without asking), and is it dangerous (never
 * run silently). Works on the parsed command (shell-words.ts), one simple
 * command at a time, then combines: a line is read-only only if every part is,
 * and dangerous if any part is.
 */
import os from 'node:os';
import path from 'node:path';
import { commandDanger, type Danger } from './bash-danger.js';
import { readOnlyVerdict } from './bash-read-only.js';
import { effectiveCommand } from './bash-words.js';
import { isInside } from './paths.js';
import { parseShell, TOO_DEEP, type SimpleCommand } from './shell-words.js';

export interface CommandClass {
  /** True when no part of the command changes anything (files, git state, processes). */
  readOnly: boolean;
  /** Why the command is dangerous, or null. */
  dangerous: null | string;
  /** True for the destructive kind (`rm -rf /`, mkfs, a fork bomb): denied even when permissions are bypassed. */
  catastrophic: boolean;
}

/** Where the command runs: paths are judged against `root` (unknown root: any absolute path counts as outside). */
export interface CommandPlace {
  root?: string;
  cwd?: string;
  /** Added directories (`--add-dir`): writing there is not writing outside. */
  extraRoots?: readonly string[];
}

const SAFE_WRITE_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|loop|mapper\/)/;
const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
const SHELLS = new Set([...POSIX_SHELLS, 'fish', 'python', 'python3', 'node', 'perl', 'ruby']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch']);
const FORK_BOMB = /([^\s(){}|&;]{1,64})\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&[^}]*\}/; // a bounded name: no quadratic scan of long words

/**
 * Dangerous and catastrophic come from the word splitter below (a blacklist:
 * what to ask about or refuse). Read-only comes from the strict whitelist in
 * bash-read-only.ts: a line is read-only only if that checker understands all
 * of it, and it is never read-only when it is also dangerous.
 */
export function classifyCommand(cmd: string, place: CommandPlace = {}): CommandClass {
  const danger = classifyDanger(cmd, place);
  return { ...danger, readOnly: danger.dangerous === null && readOnlyVerdict(cmd, place).ok };
}

function classifyDanger(cmd: string, place: CommandPlace): CommandClass {
  if (FORK_BOMB.test(cmd)) return { readOnly: false, dangerous: 'is a fork bomb', catastrophic: true };
  const parsed = parseShell(cmd);
  if (parsed.error === TOO_DEEP)
    return { readOnly: false, dangerous: 'is nested too deeply to check', catastrophic: false };
  if (parsed.error !== null) return { readOnly: false, dangerous: null, catastrophic: false };
  const parts = parsed.commands.map((command) => classifySimple(command, place));
  parts.push(pipeDanger(parsed.commands));
  parts.push(...parsed.substitutions.map((sub) => classifyDanger(sub, place)));
  return combine(parts);
}

function combine(parts: CommandClass[]): CommandClass {
  const worst = parts.find((p) => p.catastrophic) ?? parts.find((p) => p.dangerous !== null);
  return {
    readOnly: parts.every((p) => p.readOnly),
    dangerous: worst?.dangerous ?? null,
    catastrophic: worst?.catastrophic ?? false,
  };
}

function classifySimple(command: SimpleCommand, place: CommandPlace): CommandClass {
  const redirects = classifyRedirects(command, place);
  const words = effectiveCommand(command.words);
  const nested = nestedScript(words);
  if (nested !== null) return combine([redirects, classifyDanger(nested, place)]);
  const danger = commandDanger(words, (p) => isOutside(p, place));
  return combine([redirects, fromDanger(danger, true)]);
}

function fromDanger(danger: Danger | null, readOnly: boolean): CommandClass {
  return {
    readOnly: readOnly && danger === null,
    dangerous: danger?.reason ?? null,
    catastrophic: danger?.catastrophic ?? false,
  };
}

/** `sh -c '…'`, `bash -c "…"`, `eval …`: the script is a command line of its own. */
function nestedScript(words: string[]): string | null {
  const [name, ...args] = words;
  if (name === 'eval') return args.join(' ');
  if (name === undefined || !POSIX_SHELLS.has(path.basename(name))) return null;
  const flag = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
  return flag === -1 ? null : (args[flag + 1] ?? null);
}

function classifyRedirects(command: SimpleCommand, place: CommandPlace): CommandClass {
  let result: CommandClass = { readOnly: true, dangerous: null, catastrophic: false };
  for (const r of command.redirects) {
    if (!['>', '>>', '>|', '&>', '&>>', '<>', '>&'].includes(r.op)) continue;
    if (r.op === '>&' && /^(\d+|-)$/.test(r.target)) continue; // 2>&1: a descriptor, not a file
    if (SAFE_WRITE_TARGETS.test(r.target)) continue;
    if (DISK_DEVICE.test(r.target))
      return {
        readOnly: false,
        dangerous: `writes straight onto the disk device ${r.target}`,
        catastrophic: true,
      };
    result = isOutside(r.target, place)
      ? {
          readOnly: false,
          dangerous: `writes to ${r.target}, outside the working directory`,
          catastrophic: false,
        }
      : { ...result, readOnly: false };
  }
  return result;
}

/** `curl … | sh`: running whatever a server sends. */
function pipeDanger(commands: SimpleCommand[]): CommandClass {
  let downloading = false;
  for (const command of commands) {
    const name = path.basename(effectiveCommand(command.words)[0] ?? '');
    if (downloading && SHELLS.has(name)) {
      return {
        readOnly: false,
        dangerous: 'pipes a download into an interpreter (curl | sh)',
        catastrophic: false,
      };
    }
    downloading = (downloading || DOWNLOADERS.has(name)) && (command.next === '|' || command.next === '|&');
  }
  return { readOnly: true, dangerous: null, catastrophic: false };
}

/** True when the line may change the shell's directory (which bash carries to the next call). */
export function changesDirectory(cmd: string): boolean {
  const parsed = parseShell(cmd);
  if (parsed.error !== null) return true;
  return parsed.commands.some((c) => ['cd', 'pushd', 'popd'].includes(effectiveCommand(c.words)[0] ?? ''));
}

/** Outside the root (and the added directories): home-relative, or resolving (lexically) outside it. The temp folder is allowed. */
export function isOutside(target: string, place: CommandPlace): boolean {
  if (/^(~|\$HOME\b|\$\{HOME\})/.test(target)) return true;
  if (place.root === undefined) return path.isAbsolute(target) || target === '..' || target.startsWith('../');
  const abs = path.resolve(place.cwd ?? place.root, target);
  if (isInside(os.tmpdir(), abs) && abs !== os.tmpdir()) return false;
  return !isInside(place.root, abs) && !(place.extraRoots ?? []).some((dir) => isInside(dir, abs));
}
