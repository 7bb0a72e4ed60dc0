/**
 * `find` is read-only with tests, operators and printing actions only.
 * Refused: `-exec`, `-execdir`, `-ok`, `-okdir` (run programs), `-delete`,
 * `-fprint`, `-fprint0`, `-fprintf`, `-fls` (write files), and any primary
 * not in the table below. Values known only at run time may not stand where
 * a primary is expected.
 */
import { names, OK, refuse, show } from './flags.js';
import type { CommandRule, Verdict, Word } from './types.js';

/** Primaries without a value. */
const FLAGS = new Set(
  names(
    '-print -print0 -ls -prune -quit -true -false -empty -readable -writable -executable -nouser -nogroup -depth -d -mount -xdev -noleaf -follow -daystart -ignore_readdir_race -noignore_readdir_race -not -a -and -o -or ! ( ) , -help --help -version --version',
  ),
);

/** Primaries with one value. */
const WITH_VALUE = new Set(
  names(
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -maxdepth -mindepth -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -size -perm -user -group -uid -gid -links -inum -samefile -used -regextype -fstype -printf -context -files0-from',
  ),
);

/** Options before the starting points. */
const LEADING = new Set(names('-H -L -P'));
const NEWER_XY = /^-newer[aBcmt][aBcmt]$/;

export const findRule: CommandRule = { pure: false, check: checkFind };

function checkFind(args: Word[]): Verdict {
  let k = 0;
  while (k < args.length && LEADING.has(literalText(args[k] as Word) ?? '')) k++;
  while (k < args.length && isStartingPoint(args[k] as Word)) {
    if (!(args[k] as Word).anchored)
      return refuse(`a find starting point whose value is not known (${show(args[k] as Word)})`);
    k++;
  }
  for (; k < args.length; k++) {
    const word = args[k] as Word;
    const text = literalText(word);
    if (text === null) return refuse(`a find primary whose value is not known (${show(word)})`);
    if (FLAGS.has(text)) continue;
    if (!WITH_VALUE.has(text) && !NEWER_XY.test(text))
      return refuse(`the find primary ${text} is not known to be harmless`);
    const value = args[++k];
    if (value === undefined) return refuse(`${text} needs a value`);
    if (value.splits) return refuse(`the value of ${text} is split by the shell`);
  }
  return OK;
}

function isStartingPoint(word: Word): boolean {
  const text = word.text;
  return !(
    !word.dynamic &&
    (text.startsWith('-') || text === '!' || text === '(' || text === ')' || text === ',')
  );
}

function literalText(word: Word): string | null {
  return word.dynamic ? null : word.text;
}
