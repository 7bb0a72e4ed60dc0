/**
 * The read-only verdict on a whole command line: it is read-only only if the
 * strict reader understands all of it and every simple command in it — each
 * `$(…)` included — is a known command with known options (tables in this
 * folder). Anything else is "not read-only" with the first reason found.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { OK, ownEntry, refuse, show } from './flags.js';
import { findRule } from './find.js';
import { checkGit } from './git.js';
import { repositoryConfigRisk } from './git-config-trust.js';
import { GUARDED_RULES } from './guarded-commands.js';
import { PURE_RULES } from './pure-commands.js';
import { readStrict } from './reader.js';
import { sedRule } from './sed.js';
import type { CommandRule, StrictCommand, Verdict, Word } from './types.js';
import { unwrap, WRAPPERS } from './wrappers.js';

/** Where the line runs; without a root, the repository config check is skipped (see git-config-trust.ts). */
export interface CheckPlace {
  root?: string;
  cwd?: string;
}

const RULES: Record<string, CommandRule> = { ...PURE_RULES, ...GUARDED_RULES, sed: sedRule, find: findRule };

/** Environment names a prefix (`LC_ALL=C sort`) may set: none of them makes a program load or run anything. */
const SAFE_NAMES = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|COLUMNS|LINES)$/;
const MAX_DIRS = 8;

export function checkReadOnly(line: string, place: CheckPlace = {}): Verdict {
  const read = readStrict(line);
  if (!read.ok) return read;
  const searchPath = pathProblem(place);
  const dirs = place.root === undefined ? null : [path.resolve(place.root, place.cwd ?? '.')];
  for (const command of read.commands) {
    const verdict = checkCommand(command, dirs, searchPath);
    if (!verdict.ok) return verdict;
  }
  return OK;
}

function checkCommand(command: StrictCommand, dirs: string[] | null, searchPath: SearchPath): Verdict {
  const unsafe = command.assignments.find((a) => !SAFE_NAMES.test(a.name));
  if (unsafe !== undefined) return refuse(`setting ${unsafe.name} can change what programs load or run`);
  let words = command.words;
  let extraArgs = false;
  for (;;) {
    const name = words[0];
    if (name === undefined) return OK;
    if (name.dynamic || name.text.includes('/'))
      return refuse(`the command name ${show(name)} is not a plain name`);
    if (!WRAPPERS.has(name.text))
      return checkNamed(name.text, words.slice(1), { dirs, searchPath, extraArgs });
    const shadowed = shadowing(name.text, searchPath);
    if (shadowed !== null) return refuse(shadowed);
    const unwrapped = unwrap(name.text, words.slice(1));
    if (!unwrapped.ok) return unwrapped;
    const bad = unwrapped.value.assignments.find((n) => !SAFE_NAMES.test(n));
    if (bad !== undefined) return refuse(`setting ${bad} can change what programs load or run`);
    extraArgs ||= unwrapped.value.extraArgs;
    words = unwrapped.value.inner;
    if (words.length === 0 && extraArgs) return OK; // bare xargs runs echo
  }
}

interface Context {
  dirs: string[] | null;
  searchPath: SearchPath;
  extraArgs: boolean;
}

function checkNamed(name: string, args: Word[], ctx: Context): Verdict {
  const shadowed = shadowing(name, ctx.searchPath);
  if (shadowed !== null) return refuse(shadowed);
  if (name === 'git') return gitVerdict(args, ctx);
  const rule = ownEntry(RULES, name);
  if (rule === undefined) return refuse(`${name} is not a known read-only command`);
  if (ctx.extraArgs && !rule.pure) return refuse(`xargs would add unseen arguments to ${name}`);
  const verdict = rule.check(args);
  if (verdict.ok && name === 'cd') followCd(args, ctx);
  return verdict;
}

/** Builtins bash runs without searching PATH. */
const BUILTINS = new Set(['cd', 'echo', 'printf', 'pwd', 'test', '[', 'true', 'false', 'type', 'command']);

function gitVerdict(args: Word[], ctx: Context): Verdict {
  if (ctx.extraArgs) return refuse('xargs would add unseen arguments to git');
  const call = checkGit(args);
  if (!call.verdict.ok || ctx.dirs === null) return call.verdict;
  if (ctx.dirs.length === 0) return refuse('git after a cd whose directory is not known');
  for (const base of ctx.dirs) {
    const dir = call.dirs.reduce((d, c) => path.resolve(d, c), base);
    const risk = repositoryConfigRisk(dir);
    if (risk !== null) return refuse(`git here may run a program from the repository config: ${risk}`);
  }
  return OK;
}

/** A `cd` adds the directory git may run in next (it may not run: pipes and `||` are not followed). */
function followCd(args: Word[], ctx: Context): void {
  if (ctx.dirs === null) return;
  const target = args.find((w) => w.dynamic || !w.text.startsWith('-'));
  if (target === undefined || target.dynamic || target.text === '-') {
    ctx.dirs.length = 0;
    return;
  }
  const next = ctx.dirs.map((d) => path.resolve(d, target.text));
  ctx.dirs.push(...next);
  if (ctx.dirs.length > MAX_DIRS) ctx.dirs.length = 0;
}

/**
 * A relative or empty PATH entry lets any file stand in for `ls` or `git`:
 * then nothing is read-only. An entry inside the working directory (npx puts
 * `node_modules/.bin` there) matters only for a name it holds: `shadowing`
 * checks that per command.
 */
function pathProblem(place: CheckPlace): SearchPath {
  const entries = (process.env.PATH ?? '').split(path.delimiter);
  const loose = entries.find((e) => e === '' || !path.isAbsolute(e));
  const inRoot = place.root === undefined ? [] : entries.filter((e) => isWithin(place.root as string, e));
  return {
    problem:
      loose === undefined
        ? null
        : `PATH contains ${loose === '' ? 'an empty entry' : loose}, which files here could shadow`,
    inRoot,
  };
}

interface SearchPath {
  problem: string | null;
  /** PATH entries inside the working directory. */
  inRoot: string[];
}

/** Why running `name` by PATH could pick a file from the working directory, or null. */
function shadowing(name: string, searchPath: SearchPath): string | null {
  if (BUILTINS.has(name)) return null;
  if (searchPath.problem !== null) return searchPath.problem;
  const entry = searchPath.inRoot.find((e) => existsSync(path.join(e, name)));
  return entry === undefined ? null : `${name} would be found in ${entry}, inside the working directory`;
}

function isWithin(root: string, p: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(p));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
