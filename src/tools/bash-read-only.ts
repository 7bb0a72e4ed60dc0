/**
 * Which simple commands only look: they print, list or compare and change no
 * file, no git state, no process. Unknown commands are not read-only.
 */
import path from 'node:path';
import { hasFlag, operands } from './bash-words.js';

/** Commands that never write, whatever their arguments. */
const ALWAYS = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'pwd',
  'echo',
  'printf',
  'which',
  'whereis',
  'type',
  'file',
  'stat',
  'du',
  'df',
  'tree',
  'cut',
  'tr',
  'diff',
  'cmp',
  'comm',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'whoami',
  'id',
  'uname',
  'true',
  'false',
  'test',
  '[',
  '[[',
  'nl',
  'od',
  'hexdump',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'cksum',
  'column',
  'seq',
  'cd',
  'printenv',
  'ps',
  'jq',
  'sleep',
  'export',
  'less',
  'more',
  'for',
  'locale',
  'nproc',
  'uptime',
  'free',
  'groups',
  'tac',
  'rev',
  'fold',
  'expand',
  'strings',
  'fmt',
  'paste',
]);

/** Commands read-only only with some arguments. */
const CONDITIONAL: Record<string, (args: string[]) => boolean> = {
  find: (args) => !args.some((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a)),
  sed: (args) => !hasFlag(args, 'i', ['--in-place']) && !args.some((a) => a.startsWith('--in-place')),
  sort: (args) => !hasFlag(args, 'o', ['--output']),
  uniq: (args) => operands(args).length <= 1,
  xxd: (args) => !hasFlag(args, 'r') && operands(args).length <= 1,
  date: (args) => !hasFlag(args, 's', ['--set']),
  hostname: (args) => operands(args).length === 0,
  env: (args) => args.length === 0,
  git: isReadOnlyGit,
  npm: (args) => ['ls', 'list', 'view', 'outdated', 'help', '--version', '-v'].includes(args[0] ?? ''),
  node: (args) => args.length === 1 && ['--version', '-v'].includes(args[0] as string),
};

export function isReadOnlyCommand(words: string[]): boolean {
  const [name, ...args] = words;
  if (name === undefined) return true;
  const base = path.basename(name);
  if (ALWAYS.has(base)) return true;
  return CONDITIONAL[base]?.(args) ?? false;
}

const GIT_READ_ONLY = new Set([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'cat-file',
  'describe',
  'shortlog',
  'grep',
  'rev-list',
  'merge-base',
  'name-rev',
  'whatchanged',
  'help',
  'version',
  '--version',
]);

/** Git global options that take a value (`git -C dir status`). */
const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace']);

function isReadOnlyGit(args: string[]): boolean {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-') && args[i] !== '--version') {
    i += GIT_GLOBAL_WITH_VALUE.has(args[i] as string) ? 2 : 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return true;
  if (GIT_READ_ONLY.has(sub)) return true;
  if (sub === 'branch') return isBranchListing(rest);
  if (sub === 'tag') return rest.length === 0 || hasFlag(rest, 'l', ['--list']);
  if (sub === 'remote') return rest.every((a) => a === '-v' || a === '--verbose') || rest[0] === 'get-url';
  if (sub === 'stash') return rest[0] === 'list' || rest[0] === 'show';
  if (sub === 'worktree') return rest[0] === 'list';
  if (sub === 'config')
    return rest.some((a) => ['--get', '--get-all', '--list', '-l', '--get-regexp'].includes(a));
  if (sub === 'reflog') return rest.length === 0 || rest[0] === 'show';
  return false;
}

const BRANCH_LIST_FLAGS =
  /^(-a|-r|-v|-vv|--all|--remotes|--list|-l|--show-current|--verbose|--no-color|--color(=.*)?|--sort=.*|--format=.*|--contains|--merged|--no-merged|--points-at)$/;

/** `git branch`, `git branch -a -v`, `git branch --list 'x*'`: listing; anything else creates, moves or deletes. */
function isBranchListing(args: string[]): boolean {
  const listing = args.some((a) => a === '--list' || a === '-l');
  return args.every((a) => BRANCH_LIST_FLAGS.test(a) || (listing && !a.startsWith('-')));
}
