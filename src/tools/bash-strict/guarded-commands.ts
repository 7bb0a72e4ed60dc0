/**
 * Commands that only read with some options and write or run code with
 * others. Their tables leave the others out — `sort -o` / `--output` /
 * `--compress-program` / `-T`, `uniq in OUT`, `xxd -r` and `xxd in OUT`,
 * `date -s`, `hostname NAME` / `-F`, `file -C` / `-m` / `-z` (runs
 * decompressors) / `-p` (resets access times) / `--no-sandbox`, `tree -o`, `rg --pre` /
 * `--search-zip`, `printf -v` — and, since an option could hide in them,
 * they accept an unknown value (`$X`, a glob) only where it cannot be read
 * as an option (see flags.ts).
 */
import { atMostOperands, byTable, names, OK, refuse, type FlagSpec } from './flags.js';
import { checkTest } from './test-expr.js';
import type { CommandRule, Verdict, Word } from './types.js';

const HELP = ['help', 'version'];

const SORT: FlagSpec = {
  short: 'bdfgiMhnRrVcCmsuz',
  shortArg: 'ktS',
  long: [
    ...HELP,
    ...names(
      'ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort reverse version-sort merge stable unique zero-terminated debug',
    ),
  ],
  longArg: names('key field-separator buffer-size parallel sort'),
  longOpt: ['check'],
};
const UNIQ: FlagSpec = {
  short: 'cdDuiz',
  shortArg: 'fsw',
  long: [...HELP, ...names('count repeated unique ignore-case zero-terminated')],
  longArg: names('skip-fields skip-chars check-chars'),
  longOpt: ['all-repeated', 'group'],
};
const XXD: FlagSpec = { short: 'aeEiCpuvdb', shortArg: 'cglsonR', long: [] };
const DATE: FlagSpec = {
  short: 'uR',
  shortArg: 'dfr',
  long: [...HELP, ...names('utc universal rfc-email debug')],
  longArg: names('date file reference'),
  longOpt: ['iso-8601', 'rfc-3339'],
};
const HOSTNAME: FlagSpec = {
  short: 'sfdiIAaey',
  long: [...HELP, ...names('short fqdn long domain ip-address all-ip-addresses all-fqdns alias')],
};
const FILE: FlagSpec = {
  short: 'bcdEhiIkLlNnrsSv0',
  shortArg: 'eFfP',
  long: [
    ...HELP,
    ...names(
      'brief checking-printout dereference no-dereference mime mime-type mime-encoding keep-going list no-buffer no-pad raw special-files print0 extension apple',
    ),
  ],
  longArg: names('exclude exclude-quiet separator files-from parameter'),
};
const TREE: FlagSpec = {
  short: 'adlfxACDFghiJnNpqQrstuUv',
  shortArg: 'LIPH',
  long: [
    ...HELP,
    ...names(
      'noreport dirsfirst filesfirst gitignore prune matchdirs ignore-case du si inodes device fromfile info',
    ),
  ],
  longArg: names('filelimit sort charset timefmt hintro houtro'),
};
const RG: FlagSpec = {
  short: 'acFHhiIlLnNopqsSuUvwx0',
  shortArg: 'ABCefgmMrtTEj',
  numeric: false,
  long: [
    ...HELP,
    ...names(
      'case-sensitive ignore-case smart-case fixed-strings word-regexp line-regexp invert-match count count-matches files files-with-matches files-without-match only-matching quiet line-number no-line-number column no-heading heading with-filename no-filename hidden no-ignore no-ignore-vcs no-ignore-dot no-ignore-parent no-ignore-global no-ignore-exclude follow text binary multiline multiline-dotall null null-data trim vimgrep json pcre2 no-pcre2 stats sort-files type-list no-messages unrestricted no-config one-file-system crlf byte-offset passthru no-unicode max-columns-preview no-require-git debug trace files-without-match',
    ),
  ],
  longArg: names(
    'regexp file glob iglob type type-not type-add max-count max-depth max-filesize after-context before-context context max-columns encoding engine sort sortr threads replace color colors path-separator context-separator field-match-separator field-context-separator ignore-file regex-size-limit dfa-size-limit',
  ),
};
// Left out: rg -z / --search-zip (runs decompressors), --pre / --pre-glob (runs a program of the caller's choice).

/** `echo` prints its arguments, whatever they are. */
const echo: CommandRule = { pure: true, check: () => OK };

/** `printf FORMAT ARGS`: printing only; `-v NAME` assigns (and `-v 'a[$(…)]'` runs code), so it is refused. */
const printf: CommandRule = {
  pure: false,
  check: (args) => {
    const first = args[0];
    if (first === undefined) return OK;
    if (first.dynamic || first.text.startsWith('-'))
      return first.text === '--' ? OK : refuse('printf with an option (-v assigns)');
    return OK;
  },
};

/** `cd [-L|-P] [dir]`: moves this shell only (the bash tool keeps it inside the root). */
const cd: CommandRule = {
  pure: true,
  check: byTable({ short: 'LPe@' }, true, (a) =>
    a.operands.length <= 1 ? OK : refuse('cd with more than one directory'),
  ),
};

/** `node --version` and nothing else: any other node command runs a program. */
const node: CommandRule = {
  pure: false,
  check: (args) =>
    args.length === 1 && ['--version', '-v'].includes(args[0]?.text ?? '') && !(args[0] as Word).dynamic
      ? OK
      : refuse('node runs programs'),
};

function rule(spec: FlagSpec, limit?: Parameters<typeof byTable>[2]): CommandRule {
  return { pure: false, check: byTable(spec, false, limit) };
}

/** `date +FORMAT` prints; any other operand sets the clock. */
function dateOperands(args: { operands: Word[] }): Verdict {
  return args.operands.every((w) => w.text.startsWith('+'))
    ? OK
    : refuse('date with an operand other than +FORMAT sets the clock');
}

export const GUARDED_RULES: Record<string, CommandRule> = {
  sort: rule(SORT),
  uniq: rule(UNIQ, atMostOperands(1)),
  xxd: rule(XXD, atMostOperands(1)),
  date: rule(DATE, dateOperands),
  hostname: rule(HOSTNAME, atMostOperands(0)),
  file: rule(FILE),
  tree: rule(TREE),
  rg: rule(RG),
  echo,
  printf,
  cd,
  node,
  test: { pure: false, check: (args) => checkTest(args) },
  '[': {
    pure: false,
    check: (args) =>
      args.at(-1)?.text === ']' && !(args.at(-1) as Word).dynamic
        ? checkTest(args.slice(0, -1))
        : refuse('[ without a closing ]'),
  },
};

/** For tests: the option tables of the guarded commands. */
export const GUARDED_TABLES = {
  sort: SORT,
  uniq: UNIQ,
  xxd: XXD,
  date: DATE,
  hostname: HOSTNAME,
  file: FILE,
  tree: TREE,
  rg: RG,
};
