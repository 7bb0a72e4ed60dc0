/**
 * The command a simple command really runs: `FOO=1 nice -n 5 timeout 30 npm test`
 * runs `npm test`. Strips variable assignments, shell keywords and wrapper
 * commands (with their options) until the real command name is first.
 * `sudo` is kept: running as root is itself what the classifier must see.
 */
import path from 'node:path';

const KEYWORDS = new Set([
  '!',
  '{',
  '}',
  'then',
  'do',
  'else',
  'if',
  'elif',
  'while',
  'until',
  'done',
  'fi',
  'esac',
]);

/** Wrapper name → options that take a separate argument (the rest are flags). */
const WRAPPERS: Record<string, { argOptions: string[]; positional: number }> = {
  env: { argOptions: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'], positional: 0 },
  nice: { argOptions: ['-n', '--adjustment'], positional: 0 },
  nohup: { argOptions: [], positional: 0 },
  time: { argOptions: ['-f', '-o'], positional: 0 },
  command: { argOptions: [], positional: 0 },
  builtin: { argOptions: [], positional: 0 },
  exec: { argOptions: ['-a'], positional: 0 },
  stdbuf: { argOptions: ['-i', '-o', '-e'], positional: 0 },
  timeout: { argOptions: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  xargs: {
    argOptions: [
      '-I',
      '-i',
      '-n',
      '-P',
      '-d',
      '-L',
      '-s',
      '-a',
      '-E',
      '--max-args',
      '--max-procs',
      '--delimiter',
    ],
    positional: 0,
  },
};

export function effectiveCommand(words: string[]): string[] {
  let rest = words;
  for (;;) {
    const next = stripOne(rest);
    if (next === rest) return rest;
    rest = next;
  }
}

function stripOne(words: string[]): string[] {
  const first = words[0];
  if (first === undefined) return words;
  if (KEYWORDS.has(first) || isAssignment(first)) return words.slice(1);
  const name = path.basename(first);
  const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  return wrapper === undefined ? words : skipOptions(words.slice(1), wrapper);
}

function skipOptions(args: string[], wrapper: { argOptions: string[]; positional: number }): string[] {
  let i = 0;
  while (i < args.length) {
    const arg = args[i] as string;
    if (arg === '--') return args.slice(i + 1 + wrapper.positional);
    if (!arg.startsWith('-') || arg === '-') break;
    i += wrapper.argOptions.includes(arg) ? 2 : 1;
  }
  return args.slice(i + wrapper.positional);
}

/** `NAME=value` before a command (or alone). */
export function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word);
}

/** Arguments that are not options (everything after `--` counts as an operand). */
export function operands(args: string[]): string[] {
  const dashdash = args.indexOf('--');
  const before = dashdash === -1 ? args : args.slice(0, dashdash);
  const after = dashdash === -1 ? [] : args.slice(dashdash + 1);
  return [...before.filter((a) => !a.startsWith('-') || a === '-'), ...after];
}

/** True when a short-flag cluster or long flag in `args` is one of `flags` (`-rf` has `-r` and `-f`). */
export function hasFlag(args: string[], short: string, long: string[] = []): boolean {
  return args.some(
    (a) => long.includes(a.split('=')[0] as string) || (/^-[A-Za-z]+$/.test(a) && a.slice(1).includes(short)),
  );
}
