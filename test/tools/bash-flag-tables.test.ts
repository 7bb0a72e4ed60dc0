import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readOnlyVerdict } from '../../src/tools/bash-read-only.js';
import type { FlagSpec } from '../../src/tools/bash-strict/flags.js';
import { GIT_TABLES } from '../../src/tools/bash-strict/git-options.js';
import { GUARDED_TABLES } from '../../src/tools/bash-strict/guarded-commands.js';
import { PURE_TABLES } from '../../src/tools/bash-strict/pure-commands.js';

const place = { root: '/repo', cwd: '/repo' };

/** Every option word a table accepts, with a value where it takes one. */
function optionWords(spec: FlagSpec): string[] {
  return [
    ...[...(spec.short ?? '')].map((c) => `-${c}`),
    ...[...(spec.shortArg ?? '')].map((c) => `-${c} v`),
    ...(spec.long ?? []).map((n) => `--${n}`),
    ...(spec.longArg ?? []).map((n) => `--${n}=v`),
    ...(spec.longOpt ?? []).map((n) => `--${n}`),
  ];
}

function subset(spec: FlagSpec, most: number): fc.Arbitrary<string[]> {
  const words = optionWords(spec);
  return fc.subarray(words, { maxLength: Math.min(most, words.length) });
}

const COMMANDS: [string, FlagSpec][] = [
  ...Object.entries(PURE_TABLES),
  ...Object.entries(GUARDED_TABLES),
  ...Object.entries(GIT_TABLES).map(([sub, spec]): [string, FlagSpec] => [`git ${sub}`, spec]),
];

/** Options that write or run a program, per command: inserted anywhere, they must make the line ask. */
const DANGEROUS: Record<string, string[]> = {
  sort: [
    '-o X',
    '-oX',
    '-o/tmp/X',
    '--output=X',
    '--output X',
    '--out=X',
    '--compress-program=sh',
    '--compress-prog=sh',
    '-T /tmp',
    '--temporary-directory=/tmp',
  ],
  rg: ['--pre sh', '--pre=sh', '--pre-glob=*', '-z', '--search-zip'],
  tree: ['-o X', '-oX'],
  file: ['-C', '-m magic', '--compile', '-z', '-Z', '-p', '--preserve-date', '--no-sandbox', '--uncompress'],
  xxd: ['-r'],
  date: ['-s 2020-01-01', '--set=2020-01-01'],
  hostname: ['-F f', '--file=f'],
  uniq: ['a.txt X'],
  git: [
    '--output=X',
    '--ext-diff',
    '--textconv',
    '--show-signature',
    '--exec=x',
    '--upload-pack=x',
    '--filters',
    '--format=%G?',
  ],
};
const ANY_COMMAND = [
  '$(touch X)',
  '`touch X`',
  '> X',
  '>> X',
  '; touch X',
  '&& touch X',
  '| tee X',
  '<(touch X)',
  '${x:=1}',
  '$((x=1))',
];

describe('option tables: every option listed is accepted', () => {
  it.each(COMMANDS)('%s', (command, spec) => {
    fc.assert(
      fc.property(subset(spec, 6), (options) => {
        const line = [command, ...options].join(' ');
        expect(readOnlyVerdict(line, place), line).toEqual({ ok: true });
      }),
      { numRuns: 40 },
    );
  });
});

describe('option tables: a dangerous option anywhere is refused', () => {
  it.each(COMMANDS)('%s', (command, spec) => {
    const family = command.startsWith('git ') ? 'git' : command;
    const pager =
      command === 'git grep' ? ['-O', '-Oless', '--open-files-in-pager', '--open-files-in-pager=x'] : [];
    const dangers = [...(DANGEROUS[family] ?? []), ...pager, ...ANY_COMMAND];
    fc.assert(
      fc.property(subset(spec, 5), fc.constantFrom(...dangers), fc.nat(), (options, danger, at) => {
        const words = [...options];
        words.splice(at % (words.length + 1), 0, danger);
        const line = [command, ...words].join(' ');
        expect(readOnlyVerdict(line, place).ok, line).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});

describe('option tables: an unknown option is refused', () => {
  const name = fc.stringMatching(/^[a-z][a-z-]{0,14}$/);
  it.each(COMMANDS)('%s', (command, spec) => {
    fc.assert(
      fc.property(name, fc.constantFrom('--', '-'), (n, dashes) => {
        const word = dashes === '-' ? `-${n.charAt(0)}` : `--${n}`;
        const known =
          dashes === '-'
            ? `${spec.short ?? ''}${spec.shortArg ?? ''}`.includes(n.charAt(0)) || (spec.numeric ?? false)
            : [...(spec.long ?? []), ...(spec.longArg ?? []), ...(spec.longOpt ?? [])].includes(n);
        if (known) return;
        const line = `${command} ${word}`;
        expect(readOnlyVerdict(line, place).ok, line).toBe(false);
      }),
      { numRuns: 30 },
    );
  });
});
