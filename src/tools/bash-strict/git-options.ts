/**
 * Option tables of the git subcommands the classifier lets run without
 * asking. Left out on purpose, everywhere: `--ext-diff` (runs diff.external),
 * `--textconv` (runs a textconv driver), `--output` (writes a file),
 * `--show-signature` (runs gpg.program), `-O` / `--open-files-in-pager`
 * (runs a pager), `--filters` (runs filter drivers), `--exec`, `--upload-pack`
 * and every option that writes (`branch -d`, `tag NAME`, `config NAME VALUE` …).
 */
import { names, type FlagSpec } from './flags.js';

const HELP = ['help'];

/** Options of the diff machinery (diff, log -p, show, stash show). */
const DIFF_LONG = names(
  'patch no-patch raw patch-with-raw patch-with-stat stat numstat shortstat summary name-only name-status compact-summary full-index binary check no-renames find-copies-harder irreversible-delete text ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines ignore-cr-at-eol function-context no-ext-diff no-textconv no-color no-prefix default-prefix exit-code quiet minimal patience histogram cached staged merge-base no-index cc combined-all-paths no-stat pickaxe-all pickaxe-regex indent-heuristic no-indent-heuristic color-moved-ws no-color-moved no-color-moved-ws ita-invisible-in-index ita-visible-in-index no-relative rename-empty no-rename-empty remerge-diff',
);
const DIFF_ARG = names(
  'unified stat-width stat-name-width stat-count stat-graph-width diff-filter src-prefix dst-prefix line-prefix inter-hunk-context diff-algorithm anchored word-diff-regex ignore-matching-lines skip-to rotate-to output-indicator-new output-indicator-old output-indicator-context find-object ignore-submodules submodule relative orderfile',
);
const DIFF_OPT = names(
  'color color-words word-diff dirstat abbrev find-renames find-copies break-rewrites color-moved relative ignore-submodules submodule diff-merges dirstat-by-file cumulative',
);

/** Revision walking and formatting (log, shortlog, rev-list, whatchanged). */
const REV_LONG = names(
  'all branches tags remotes oneline graph reverse first-parent merges no-merges follow abbrev-commit no-abbrev-commit no-decorate source use-mailmap full-diff log-size left-right cherry-pick cherry-mark cherry left-only right-only boundary ancestry-path topo-order date-order author-date-order simplify-by-decoration full-history dense sparse simplify-merges show-pulls regexp-ignore-case basic-regexp extended-regexp fixed-strings perl-regexp invert-grep all-match no-walk do-walk relative-date parents children count objects no-notes show-linear-break no-min-parents no-max-parents reflog walk-reflogs mailmap no-mailmap numbered summary email committer shortstat timestamp stdin single-worktree exclude-first-parent-only',
);
const REV_ARG = names(
  'max-count skip since after until before author committer grep grep-reflog min-parents max-parents date exclude since-as-filter notes show-notes group encoding expand-tabs pretty format decorate-refs decorate-refs-exclude',
);
const REV_OPT = names(
  'decorate branches tags remotes glob no-walk show-linear-break expand-tabs pretty format notes clear-decorations',
);

const DIFF: FlagSpec = {
  short: 'pusRaBMCDwbWz',
  shortArg: 'UOSGl',
  numeric: false,
  long: [...HELP, ...DIFF_LONG],
  longArg: DIFF_ARG,
  longOpt: DIFF_OPT,
};
const LOG: FlagSpec = {
  short: 'pusRaBMCDwbWzimvceEFP',
  shortArg: 'nUSGL',
  numeric: true,
  long: [...HELP, ...DIFF_LONG, ...REV_LONG],
  longArg: [...DIFF_ARG, ...REV_ARG],
  longOpt: [...DIFF_OPT, ...REV_OPT],
};

export const GIT_TABLES: Record<string, FlagSpec> = {
  status: {
    short: 'sbvz',
    long: [
      ...HELP,
      ...names('short branch show-stash long verbose null no-renames ahead-behind no-ahead-behind renames'),
    ],
    longOpt: names('porcelain untracked-files ignored ignore-submodules column find-renames'),
    shortArg: '',
  },
  diff: DIFF,
  log: LOG,
  show: LOG,
  whatchanged: LOG,
  shortlog: { short: 'nsecw', long: [...HELP, ...REV_LONG], longArg: REV_ARG, longOpt: [...REV_OPT, 'w'] },
  'rev-list': LOG,
  blame: {
    short: 'bcflnpstewMC',
    shortArg: 'LS',
    long: [
      ...HELP,
      ...names(
        'root show-stats porcelain line-porcelain incremental show-name show-number show-email progress no-progress score-debug minimal reverse first-parent no-textconv',
      ),
    ],
    longArg: names('date contents ignore-rev ignore-revs-file encoding'),
    longOpt: names('abbrev color-lines color-by-age'),
  },
  'rev-parse': {
    short: 'q',
    long: [
      ...HELP,
      ...names(
        'show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository verify quiet symbolic symbolic-full-name all local-env-vars show-superproject-working-tree shared-index-path revs-only no-revs flags no-flags sq not show-object-format',
      ),
    ],
    longArg: names('default prefix since after until before git-path resolve-git-dir exclude'),
    longOpt: names('abbrev-ref short branches tags remotes glob disambiguate path-format show-object-format'),
  },
  'ls-files': {
    short: 'cdmoiskuvftz',
    shortArg: 'xX',
    long: [
      ...HELP,
      ...names(
        'cached deleted modified others ignored stage killed unmerged resolve-undo directory no-empty-directory exclude-standard full-name recurse-submodules error-unmatch eol deduplicate debug sparse null',
      ),
    ],
    longArg: names('exclude exclude-from exclude-per-directory with-tree format'),
    longOpt: ['abbrev'],
  },
  'ls-tree': {
    short: 'dlrtz',
    long: [...HELP, ...names('long name-only name-status object-only full-name full-tree')],
    longArg: ['format'],
    longOpt: ['abbrev'],
  },
  'cat-file': {
    short: 'tspe',
    long: [...HELP, ...names('allow-unknown-type mailmap no-mailmap use-mailmap')],
  },
  describe: {
    long: [...HELP, ...names('all tags contains long always exact-match first-parent debug')],
    longArg: names('candidates match exclude'),
    longOpt: ['abbrev'], // not --dirty / --broken: they refresh (write) the index
  },
  'merge-base': { short: 'a', long: [...HELP, ...names('all octopus independent is-ancestor fork-point')] },
  'name-rev': {
    long: [...HELP, ...names('tags all name-only no-undefined always annotate-stdin stdin')],
    longArg: ['refs', 'exclude'],
  },
  grep: {
    short: 'aiIwvhHEGFPnlLzocpWq',
    shortArg: 'efABCm',
    numeric: true,
    long: [
      ...HELP,
      ...names(
        'cached no-index untracked no-exclude-standard exclude-standard recurse-submodules text ignore-case word-regexp invert-match full-name extended-regexp basic-regexp perl-regexp fixed-strings line-number column files-with-matches name-only files-without-match null only-matching count no-color break heading show-function function-context and or not all-match quiet no-textconv',
      ),
    ],
    longArg: names('max-depth threads after-context before-context context max-count'),
    longOpt: ['color'],
  },
  version: { long: ['build-options'] },
};

/** `git branch` listing options; an operand is allowed only with --list (a pattern). */
export const BRANCH: FlagSpec = {
  short: 'arvli',
  long: names('all remotes verbose list show-current no-color ignore-case omit-empty'),
  longArg: names('sort format points-at'),
  longOpt: names('color contains no-contains merged no-merged abbrev column'),
};
export const TAG: FlagSpec = {
  short: 'li',
  long: names('list ignore-case omit-empty'),
  longArg: names('sort format points-at'),
  longOpt: names('contains no-contains merged no-merged column color'),
  numeric: false,
};
export const CONFIG_READ: FlagSpec = {
  short: 'lz',
  long: names(
    'get get-all get-regexp get-urlmatch list global system local worktree show-origin show-scope null name-only bool int bool-or-int path expiry-date includes no-includes',
  ),
  longArg: names('file blob type default'),
};
export const WORKTREE_LIST: FlagSpec = { short: 'vz', long: ['porcelain', 'verbose'], longOpt: ['expire'] };
export const STASH_LIST = LOG;
export const STASH_SHOW: FlagSpec = {
  ...DIFF,
  long: [...(DIFF.long ?? []), 'include-untracked', 'only-untracked'],
};
export const REMOTE_GET_URL: FlagSpec = { long: ['push', 'all'] };
