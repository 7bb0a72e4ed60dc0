/**
 * `git` is read-only for the subcommands in git-options.ts with their known
 * options. Global options are limited to `--no-pager`, `-P`, the pathspec
 * switches, `--version` and `-C <dir>`: never `-c` / `--config-env` (config
 * injection: `core.fsmonitor`, `core.pager`, `diff.external` run programs),
 * `--exec-path`, `--git-dir`, `--work-tree`, `--namespace`, `-p` (pager),
 * `--super-prefix`. Formats asking for signatures (`%G…`) run gpg and are
 * refused. Config a repository already has is judged by git-config-trust.ts.
 */
import { OK, ownEntry, parseFlags, refuse, show, type FlagSpec, type ParsedArgs } from './flags.js';
import {
  BRANCH,
  CONFIG_READ,
  GIT_TABLES,
  REMOTE_GET_URL,
  STASH_LIST,
  STASH_SHOW,
  TAG,
  WORKTREE_LIST,
} from './git-options.js';
import type { Verdict, Word } from './types.js';

const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
]);

export interface GitCall {
  /** The `-C` directories, in order (each relative to the one before). */
  dirs: string[];
  verdict: Verdict;
}

export function checkGit(args: Word[]): GitCall {
  const dirs: string[] = [];
  let k = 0;
  for (; k < args.length; k++) {
    const word = args[k] as Word;
    if (word.dynamic)
      return { dirs, verdict: refuse(`a git argument whose value is not known (${show(word)})`) };
    if (GLOBAL_FLAGS.has(word.text)) continue;
    if (word.text === '--version' && k === args.length - 1) return { dirs, verdict: OK };
    if (word.text !== '-C') break;
    const dir = args[++k];
    if (dir === undefined || dir.dynamic || dir.text === '')
      return { dirs, verdict: refuse('git -C needs a plain directory') };
    dirs.push(dir.text);
  }
  const sub = args[k];
  if (sub === undefined) return { dirs, verdict: refuse('git without a subcommand') };
  if (sub.text.startsWith('-'))
    return { dirs, verdict: refuse(`the git option ${sub.text} (config, paths or pager)`) };
  return { dirs, verdict: checkSubcommand(sub.text, args.slice(k + 1)) };
}

function checkSubcommand(sub: string, rest: Word[]): Verdict {
  const table = ownEntry(GIT_TABLES, sub);
  if (table !== undefined) return withTable(table, rest, noSignatureFormat);
  const special = ownEntry(SPECIAL, sub);
  return special === undefined ? refuse(`git ${sub} is not a known read-only subcommand`) : special(rest);
}

function withTable(spec: FlagSpec, args: Word[], limit: (a: ParsedArgs) => Verdict): Verdict {
  const parsed = parseFlags(spec, args, false);
  return parsed.ok ? limit(parsed.args) : parsed;
}

/** `--format=%G?` / `%GS` … verify signatures (gpg.program runs). */
function noSignatureFormat(args: ParsedArgs): Verdict {
  const format = args.options.find(
    (o) => ['--format', '--pretty'].includes(o.name) && o.value !== null && /%G/.test(o.value.text),
  );
  if (format !== undefined) return refuse('a git format that verifies signatures (runs gpg.program)');
  if (args.options.some((o) => o.value?.dynamic === true))
    return refuse('a git option value that is not known');
  return OK;
}

const SPECIAL: Record<string, (rest: Word[]) => Verdict> = {
  branch: (rest) =>
    withTable(BRANCH, rest, (a) =>
      a.operands.length === 0 || hasOption(a, '--list', '-l')
        ? OK
        : refuse('git branch NAME creates a branch'),
    ),
  tag: (rest) =>
    withTable(TAG, rest, (a) =>
      a.operands.length === 0 || hasOption(a, '--list', '-l') ? OK : refuse('git tag NAME creates a tag'),
    ),
  config: (rest) => withTable(CONFIG_READ, rest, configRead),
  remote: (rest) => remote(rest),
  stash: (rest) => subVerb(rest, { list: STASH_LIST, show: STASH_SHOW }),
  worktree: (rest) => subVerb(rest, { list: WORKTREE_LIST }),
  reflog: (rest) => (rest.length === 0 ? OK : subVerb(rest, { show: STASH_LIST })),
};

function subVerb(rest: Word[], verbs: Record<string, FlagSpec>): Verdict {
  const [verb, ...args] = rest;
  const spec = verb === undefined || verb.dynamic ? undefined : ownEntry(verbs, verb.text);
  return spec === undefined
    ? refuse(`git ${verb?.text ?? ''}: only ${Object.keys(verbs).join(', ')} are read-only`)
    : withTable(spec, args, noSignatureFormat);
}

function remote(rest: Word[]): Verdict {
  if (rest.every((w) => !w.dynamic && (w.text === '-v' || w.text === '--verbose'))) return OK;
  if (rest[0]?.text === 'get-url' && !rest[0].dynamic)
    return withTable(REMOTE_GET_URL, rest.slice(1), () => OK);
  return refuse('git remote: only listing and get-url are read-only');
}

/** Reading needs --get…/--list; without them `git config NAME VALUE` writes. */
function configRead(args: ParsedArgs): Verdict {
  const reading = args.options.some((o) =>
    ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l'].includes(o.name),
  );
  if (!reading) return refuse('git config without --get or --list may write');
  return args.operands.length <= 2 ? OK : refuse('git config with too many operands');
}

function hasOption(args: ParsedArgs, ...names: string[]): boolean {
  return args.options.some((o) => names.includes(o.name));
}
