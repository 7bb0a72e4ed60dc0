/**
 * Commands none of whose options or operands can write a file, run another
 * program or change the shell: listing, printing, comparing, hashing. Each
 * still has a table of every option accepted (an unknown one asks), but a
 * word whose value is only known at run time (`$X`, `*.ts`) is fine here:
 * whatever it turns into, these programs only read and print.
 */
import { byTable, names, type FlagSpec } from './flags.js';
import type { CommandRule } from './types.js';

const NONE: FlagSpec = {};
const HELP = ['help', 'version'];

const TABLES: Record<string, FlagSpec> = {
  ls: {
    short: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1',
    shortArg: 'IwT',
    long: [
      ...HELP,
      ...names(
        'all almost-all author escape ignore-backups directory dired classify file-type full-time group-directories-first no-group human-readable si dereference dereference-command-line dereference-command-line-symlink-to-dir inode kibibytes literal numeric-uid-gid hide-control-chars show-control-chars quote-name reverse recursive size context zero',
      ),
    ],
    longArg: names(
      'block-size format hide ignore indicator-style quoting-style sort time time-style tabsize width',
    ),
    longOpt: names('color hyperlink classify'),
  },
  cat: {
    short: 'AbeEnstTuv',
    long: [
      ...HELP,
      ...names('show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting'),
    ],
  },
  head: {
    short: 'qvz',
    shortArg: 'cn',
    numeric: true,
    long: [...HELP, ...names('quiet silent verbose zero-terminated')],
    longArg: ['bytes', 'lines'],
  },
  tail: {
    short: 'qvz',
    shortArg: 'cn',
    numeric: true,
    long: [...HELP, ...names('quiet silent verbose zero-terminated')],
    longArg: ['bytes', 'lines'],
  },
  wc: {
    short: 'clmwL',
    long: [...HELP, ...names('bytes chars lines words max-line-length')],
    longArg: ['files0-from', 'total'],
  },
  grep: {
    short: 'EFGPiyvwxcLloqsbHhnTZzUaIrRV',
    shortArg: 'efmABCd',
    numeric: true,
    long: [
      ...HELP,
      ...names(
        'extended-regexp fixed-strings basic-regexp perl-regexp ignore-case no-ignore-case invert-match word-regexp line-regexp count files-without-match files-with-matches only-matching quiet silent no-messages byte-offset with-filename no-filename line-number initial-tab null null-data text recursive dereference-recursive line-buffered binary',
      ),
    ],
    longArg: names(
      'regexp file max-count label after-context before-context context binary-files devices directories exclude exclude-from exclude-dir include group-separator',
    ),
    longOpt: ['color', 'colour'],
  },
  pwd: { short: 'LP', long: HELP },
  which: { short: 'as', long: [...HELP, ...names('all skip-dot skip-tilde show-dot show-tilde')] },
  type: { short: 'afptP' },
  stat: {
    short: 'LftZ',
    shortArg: 'c',
    long: [...HELP, ...names('dereference file-system terse')],
    longArg: names('format printf cached'),
  },
  du: {
    short: '0abcDhHkLlmPSsxL',
    shortArg: 'BdtX',
    long: [
      ...HELP,
      ...names(
        'null all apparent-size bytes total dereference-args human-readable inodes dereference count-links no-dereference separate-dirs si summarize one-file-system',
      ),
    ],
    longArg: names('block-size max-depth threshold exclude exclude-from files0-from time-style'),
    longOpt: ['time'],
  },
  df: {
    short: 'ahHiklPTv',
    shortArg: 'Btx',
    long: [...HELP, ...names('all human-readable si inodes local portability print-type total no-sync sync')],
    longArg: names('block-size type exclude-type output'),
    longOpt: ['output'],
  },
  cut: {
    short: 'nsz',
    shortArg: 'bcdf',
    long: [...HELP, ...names('complement only-delimited zero-terminated')],
    longArg: names('bytes characters delimiter fields output-delimiter'),
  },
  tr: { short: 'cCdst', long: [...HELP, ...names('complement delete squeeze-repeats truncate-set1')] },
  diff: {
    short: 'abBdEiNpqrstTuwyZ',
    shortArg: 'CUDFIxXSW',
    numeric: true,
    long: [
      ...HELP,
      ...names(
        'normal brief report-identical-files expand-tabs initial-tab suppress-common-lines show-c-function recursive no-dereference new-file unidirectional-new-file ignore-file-name-case no-ignore-file-name-case ignore-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines text strip-trailing-cr minimal speed-large-files left-column side-by-side',
      ),
    ],
    longArg: names(
      'context unified exclude exclude-from starting-file from-file to-file ignore-matching-lines label width tabsize show-function-line line-format ifdef old-line-format new-line-format unchanged-line-format old-group-format new-group-format unchanged-group-format changed-group-format horizon-lines',
    ),
    longOpt: ['color', 'palette'],
  },
  cmp: {
    short: 'blsz',
    shortArg: 'in',
    long: [...HELP, ...names('print-bytes verbose quiet silent zero-terminated')],
    longArg: ['ignore-initial', 'bytes'],
  },
  comm: {
    short: '123iz',
    long: [...HELP, ...names('check-order nocheck-order total zero-terminated')],
    longArg: ['output-delimiter'],
  },
  basename: { short: 'az', shortArg: 's', long: [...HELP, 'multiple', 'zero'], longArg: ['suffix'] },
  dirname: { short: 'z', long: [...HELP, 'zero'] },
  realpath: {
    short: 'eEmLPqsz',
    long: [
      ...HELP,
      ...names('canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero'),
    ],
    longArg: ['relative-to', 'relative-base'],
  },
  readlink: {
    short: 'femnqsvz',
    long: [
      ...HELP,
      ...names(
        'canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero',
      ),
    ],
  },
  whoami: { long: HELP },
  id: { short: 'aZgGnruz', long: [...HELP, ...names('context group groups name real user zero')] },
  uname: {
    short: 'asnrvmpio',
    long: [
      ...HELP,
      ...names(
        'all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system',
      ),
    ],
  },
  groups: { long: HELP },
  nproc: { long: [...HELP, 'all'], longArg: ['ignore'] },
  uptime: { short: 'ps', long: [...HELP, 'pretty', 'since'] },
  free: {
    short: 'bkmghlLtvw',
    shortArg: 'sc',
    long: [...HELP, ...names('bytes kibi mebi gibi tebi kilo mega giga human wide total si lohi')],
    longArg: ['seconds', 'count'],
  },
  locale: {
    short: 'amckv',
    long: [...HELP, ...names('all-locales charmaps category-name keyword-name verbose')],
  },
  true: NONE,
  false: NONE,
  nl: {
    short: 'p',
    shortArg: 'bdfhilnsvw',
    long: [...HELP, 'no-renumber'],
    longArg: names(
      'body-numbering section-delimiter footer-numbering header-numbering line-increment join-blank-lines number-format number-separator starting-line-number number-width',
    ),
  },
  od: {
    short: 'bcdfiloxsv',
    shortArg: 'AjNtSw',
    long: [...HELP, 'output-duplicates', 'traditional'],
    longArg: names('address-radix endian skip-bytes read-bytes format strings'),
    longOpt: ['width'],
  },
  hexdump: { short: 'bcCdovx', shortArg: 'efns', long: HELP },
  md5sum: {
    short: 'bctwz',
    long: [...HELP, ...names('binary check tag text zero ignore-missing quiet status strict warn')],
  },
  cksum: {
    short: 'a' + 'lrz',
    shortArg: 'al',
    long: [...HELP, ...names('base64 check raw tag untagged zero debug')],
    longArg: ['algorithm', 'length'],
  },
  column: {
    short: 'tnexJLRc' + 'r',
    shortArg: 'sociNEdHWTl',
    long: [...HELP, ...names('table fillrows json keep-empty-lines')],
    longArg: names(
      'separator output-separator output-width table-columns table-name table-right table-wrap table-hide',
    ),
  },
  seq: { short: 'w', shortArg: 'fs', long: [...HELP, 'equal-width'], longArg: ['format', 'separator'] },
  printenv: { short: '0', long: [...HELP, 'null'] },
  sleep: { long: HELP },
  tac: { short: 'br', shortArg: 's', long: [...HELP, 'before', 'regex'], longArg: ['separator'] },
  rev: { short: 'V0', long: HELP },
  fold: { short: 'bs', shortArg: 'w', long: [...HELP, 'bytes', 'spaces'], longArg: ['width'] },
  expand: { short: 'i', shortArg: 't', long: [...HELP, 'initial'], longArg: ['tabs'] },
  unexpand: { short: 'a', shortArg: 't', long: [...HELP, 'all', 'first-only'], longArg: ['tabs'] },
  strings: {
    short: 'afw',
    shortArg: 'ntTesdo',
    numeric: true,
    long: [...HELP, ...names('all print-file-name include-all-whitespace data')],
    longArg: names('bytes radix encoding target output-separator'),
  },
  fmt: {
    short: 'cstu',
    shortArg: 'pwg',
    numeric: true,
    long: [...HELP, ...names('crown-margin split-only tagged-paragraph uniform-spacing')],
    longArg: names('prefix width goal'),
  },
  paste: {
    short: 'sz',
    shortArg: 'd',
    long: [...HELP, 'serial', 'zero-terminated'],
    longArg: ['delimiters'],
  },
  jq: {
    short: 'rjacnesSCMRe',
    shortArg: 'fL',
    long: [
      ...HELP,
      ...names(
        'raw-output raw-output0 join-output ascii-output compact-output null-input exit-status slurp sort-keys color-output monochrome-output raw-input tab seq stream stream-errors args jsonargs',
      ),
    ],
    longArg: names('indent from-file arg argjson slurpfile rawfile'),
  },
};
TABLES.egrep = TABLES.grep as FlagSpec;
TABLES.fgrep = TABLES.grep as FlagSpec;
for (const sum of names('sha1sum sha224sum sha256sum sha384sum sha512sum b2sum'))
  TABLES[sum] = TABLES.md5sum as FlagSpec;

/** For tests: every option table of the pure commands. */
export const PURE_TABLES: Readonly<Record<string, FlagSpec>> = TABLES;

/** `echo` and `printf` print their arguments whatever they are (`printf -v`, which assigns, is refused elsewhere). */
export const PURE_RULES: Record<string, CommandRule> = Object.fromEntries(
  Object.entries(TABLES).map(([name, spec]) => [name, { pure: true, check: byTable(spec, true) }]),
);
