import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/tools/bash-classify.js';
import { readOnlyVerdict } from '../../src/tools/bash-read-only.js';
import { ALLOWED, ESCAPES } from './bash-escapes.corpus.js';

const place = { root: '/repo', cwd: '/repo' };

describe('read-only classifier: escapes are not read-only', () => {
  for (const [family, commands] of Object.entries(ESCAPES)) {
    it.each(commands)(`${family}: %s`, (cmd) => {
      expect(readOnlyVerdict(cmd, place)).toMatchObject({ ok: false });
      expect(classifyCommand(cmd, place).readOnly).toBe(false);
    });
  }
});

describe('read-only classifier: ordinary commands stay read-only', () => {
  it.each(ALLOWED)('%s', (cmd) => {
    expect(readOnlyVerdict(cmd, place)).toEqual({ ok: true });
  });
});

const PAYLOADS = [
  'touch X',
  "sed '1e touch X' f",
  'sort -o X f',
  'git -c core.pager=x log',
  'find . -delete',
  'rm f',
  'echo hi > X',
  'tee X',
  'rg --pre sh x',
  'LD_PRELOAD=x ls',
];

/** Places to hide a payload in an otherwise read-only line. */
const CONTEXTS: ((p: string) => string)[] = [
  (p) => `echo $(${p})`,
  (p) => `echo "$(${p})"`,
  (p) => `echo \`${p}\``,
  (p) => `cat <(${p})`,
  (p) => `echo >(${p})`,
  (p) => `echo \${x:-$(${p})}`,
  (p) => `echo $(( a[$(${p})] ))`,
  (p) => `ls; ${p}`,
  (p) => `ls && ${p}`,
  (p) => `ls || ${p}`,
  (p) => `ls | ${p}`,
  (p) => `ls |& ${p}`,
  (p) => `ls\n${p}`,
  (p) => `ls \\\n; ${p}`,
  (p) => `{ ${p}; }`,
  (p) => `(${p})`,
  (p) => `eval "${p}"`,
  (p) => `bash -c "${p}"`,
  (p) => `timeout 5 ${p}`,
  (p) => `nice -n 1 ${p}`,
  (p) => `env ${p}`,
  (p) => `echo $(echo $(${p}))`,
  (p) => `if true; then ${p}; fi`,
  (p) => `ls & ${p}`,
  (p) => `cat <<EOF\n$(${p})\nEOF`,
  (p) => `f() { ${p}; }; f`,
  (p) => `echo "a" ; ${p} # comment`,
  (p) => `LC_ALL=C ${p}`,
];

describe('read-only classifier: generated escapes', () => {
  it('a payload in any context, after any allowed command, is not read-only', () => {
    fc.assert(
      fc.property(
        // Not after a here-document: its body would swallow the payload as text (rightly read-only).
        fc.constantFrom(...ALLOWED.filter((l) => !l.includes('<<'))),
        fc.constantFrom(...CONTEXTS),
        fc.constantFrom(...PAYLOADS),
        fc.constantFrom(' && ', '; ', ' | ', '\n'),
        (allowed, context, payload, join) => {
          const line = `${allowed}${join}${context(payload)}`;
          expect(readOnlyVerdict(line, place).ok, line).toBe(false);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        readOnlyVerdict(text, place);
        classifyCommand(text, place);
      }),
      { numRuns: 500 },
    );
  });

  // Unquoted tokens only, so the text's shape is the shell's (quoting has its own cases above).
  it('shell-ish random lines are read-only only without writes, substitutions of writers or unknown commands', () => {
    const token = fc.constantFrom(
      'ls',
      'cat',
      'touch',
      'X',
      '>',
      '>>',
      '|',
      ';',
      '&&',
      '$(',
      ')',
      '`',
      '-o',
      '{',
      '}',
      '(',
      '=',
      '$',
      '~',
      '*',
      '\n',
      ' ',
      'sort',
      'sed',
      'e',
      'w',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 14 }), (tokens) => {
        const line = tokens.join(' ');
        if (!readOnlyVerdict(line, place).ok) return;
        expect(line).not.toMatch(/(^|[;&|(`\n]\s*)touch\b|>\s*X|>>|(^|[;&|(\n]\s*)sort\b[^;&|]*-o|`/);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('read-only classifier: limits', () => {
  it('refuses deeply nested input without blowing the stack', () => {
    const deep = `${'echo $('.repeat(50_000)}ls${')'.repeat(50_000)}`;
    expect(readOnlyVerdict(deep, place).ok).toBe(false);
    const nested = `${'echo $('.repeat(3)}ls${')'.repeat(3)}`;
    expect(readOnlyVerdict(nested, place).ok).toBe(true);
    expect(readOnlyVerdict(`${'echo $('.repeat(7)}ls${')'.repeat(7)}`, place)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('nested'),
    });
  });

  it('refuses very long input quickly', () => {
    const long = `ls ${'a '.repeat(20_000)}`;
    const started = performance.now();
    expect(readOnlyVerdict(long, place)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('too long'),
    });
    expect(classifyCommand(long, place).readOnly).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads a long but ordinary line', () => {
    expect(readOnlyVerdict(`ls ${'a.txt '.repeat(2000)}`, place).ok).toBe(true);
  });
});

describe('repository config check', () => {
  it('names the keys that run programs, and only as keys', () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamd-gitcfg-'));
    try {
      mkdirSync(join(dir, '.git'));
      const at = { root: dir, cwd: dir };
      const verdict = (config: string): boolean => {
        writeFileSync(join(dir, '.git', 'config'), config);
        return readOnlyVerdict('git status', at).ok;
      };
      expect(verdict('[core]\n\tbare = false\n[remote "origin"]\n\turl = https://x/command-line.git\n')).toBe(
        true,
      );
      expect(verdict('[core]\n\tfsmonitor = touch X\n')).toBe(false);
      expect(verdict('[core]fsmonitor=x')).toBe(false);
      expect(verdict('[diff "a"]\n  TextConv = cat\n')).toBe(false);
      expect(verdict('[filter "lfs"]\n\tprocess = git-lfs filter-process\n')).toBe(false);
      expect(verdict('[log]\n\tshowSignature\n')).toBe(false);
      expect(verdict('[log]\r\n\tshowSignature\r\n')).toBe(false);
      expect(verdict('[includeIf "gitdir:/x"]\n\tpath = /tmp/c\n')).toBe(false);
      expect(verdict('[include]\n\tpath = c\n')).toBe(false);
      expect(verdict('[core]\n\tpager = less\n')).toBe(false);
      expect(readOnlyVerdict('ls', at).ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PATH', () => {
  it('a command found in the working directory through PATH is not read-only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamd-path-'));
    const saved = process.env.PATH;
    try {
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'ls'), '#!/bin/sh\ntouch X\n');
      writeFileSync(join(dir, 'bin', 'timeout'), '#!/bin/sh\ntouch X\n');
      const at = { root: dir, cwd: dir };
      process.env.PATH = `${join(dir, 'bin')}:${saved}`;
      expect(readOnlyVerdict('ls', at)).toMatchObject({
        ok: false,
        reason: expect.stringContaining('inside the working directory'),
      });
      expect(readOnlyVerdict('timeout 5 cat f', at).ok).toBe(false);
      expect(readOnlyVerdict('cat f', at).ok).toBe(true);
      expect(readOnlyVerdict('echo hi', at).ok).toBe(true);
      process.env.PATH = `.:${saved}`;
      expect(readOnlyVerdict('cat f', at).ok).toBe(false);
      process.env.PATH = `${saved}:`;
      expect(readOnlyVerdict('cat f', at).ok).toBe(false);
    } finally {
      process.env.PATH = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
