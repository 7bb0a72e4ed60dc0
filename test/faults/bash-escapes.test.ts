/**
 * The read-only classifier, checked by running what it allows. Every line of
 * the escape corpus, the ordinary corpus and a generated set that the
 * classifier calls read-only is run with bash in a sandboxed git repository
 * (HOME and TMPDIR pointed into the sandbox, the bash tool's environment),
 * and afterwards no file in the sandbox may have changed and no marker may
 * exist. A second repository whose own config runs programs (fsmonitor,
 * textconv, external diff, clean filter, pager, signature checks) and a
 * nested crafted repository check that git is refused there, and that what
 * is still allowed runs nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/tools/bash-classify.js';
import { safeGitEnv } from '../../src/tools/bash-read-only.js';
import { ALLOWED, ESCAPES } from '../tools/bash-escapes.corpus.js';
import { SEED, sized } from './support/scale.js';

let sandbox = '';
let repo = '';
let hostile = '';
let marker = '';

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

function makeRepo(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'a.txt'), 'hello x\nstart\nb,2\nend\na,1\n');
  writeFileSync(join(dir, 'b.txt'), 'hello y\n');
  writeFileSync(join(dir, 'src', 'x.ts'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'package.json'), '{"name":"sandbox"}\n');
  writeFileSync(join(dir, '.gitattributes'), '*.txt diff=evil filter=evil\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 't@example.com');
  git(dir, 'config', 'user.name', 't');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'one');
  writeFileSync(join(dir, 'a.txt'), 'hello x\nchanged\n');
}

/** Config keys that make read-only git commands run a program: each one touches the marker. */
function plantHostileConfig(dir: string): void {
  const touch = `touch ${marker}; false`;
  git(dir, 'config', 'core.fsmonitor', touch);
  git(dir, 'config', 'diff.external', touch);
  git(dir, 'config', 'diff.evil.textconv', `touch ${marker}; cat`);
  git(dir, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
  git(dir, 'config', 'core.pager', touch);
  git(dir, 'config', 'pager.log', touch);
  git(dir, 'config', 'log.showSignature', 'true');
  git(dir, 'config', 'gpg.program', touch);
}

beforeAll(() => {
  sandbox = mkdtempSync(join(tmpdir(), 'teamd-escapes-'));
  repo = join(sandbox, 'repo');
  hostile = join(sandbox, 'hostile');
  marker = join(sandbox, 'MARKER');
  for (const dir of ['home', 'tmp']) mkdirSync(join(sandbox, dir));
  makeRepo(repo);
  makeRepo(hostile);
  plantHostileConfig(hostile);
  mkdirSync(join(repo, 'sub', 'nested'));
  makeRepo(join(repo, 'sub', 'nested'));
  plantHostileConfig(join(repo, 'sub', 'nested'));
});

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** Every path under `dir` with its size and mtime. */
function snapshot(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    const info = lstatSync(file);
    out.set(file, `${info.size}:${info.mtimeMs}`);
    if (info.isDirectory()) snapshot(file, out);
  }
  return out;
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p));
}

/** Runs a line the way the bash tool does (its environment, no terminal, empty stdin). */
function run(line: string, cwd: string): void {
  spawnSync('bash', ['-c', line], {
    cwd,
    input: '',
    timeout: 10_000,
    env: {
      ...process.env,
      HOME: join(sandbox, 'home'),
      TMPDIR: join(sandbox, 'tmp'),
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      PAGER: 'cat',
      GIT_EDITOR: 'true',
      ...safeGitEnv(process.env),
    },
  });
}

/** Runs each allowed line and returns the ones that wrote something or ran the marker. */
function escapesAmong(lines: string[], cwd: string): { line: string; wrote: string[] }[] {
  const found: { line: string; wrote: string[] }[] = [];
  const place = { root: cwd, cwd };
  for (const template of lines) {
    const line = template.replaceAll('/tmp/X', marker);
    if (!classifyCommand(line, place).readOnly) continue;
    const before = snapshot(sandbox);
    run(line, cwd);
    const wrote = changed(before, snapshot(sandbox));
    if (wrote.length > 0 || existsSync(marker)) found.push({ line, wrote });
    rmSync(marker, { force: true });
  }
  return found;
}

const ALL_ESCAPES = Object.values(ESCAPES).flat();

describe('bash escapes, run for real', () => {
  it('the harness sees a write and a marker (control)', () => {
    const before = snapshot(sandbox);
    run(`touch X; git -c core.fsmonitor='touch ${marker}; false' status`, repo);
    expect(changed(before, snapshot(sandbox))).toContain(join(repo, 'X'));
    expect(existsSync(marker)).toBe(true);
    rmSync(join(repo, 'X'));
    rmSync(marker);
    run('git status; git diff; git log -p -1', hostile);
    expect(existsSync(marker)).toBe(true); // the hostile config really runs programs
    rmSync(marker);
  });

  it('no escape the classifier allows writes anything or runs the marker', () => {
    expect(escapesAmong(ALL_ESCAPES, repo)).toEqual([]);
  });

  it('the ordinary read-only commands write nothing (git included)', () => {
    const lines = sized(
      ALLOWED,
      ALLOWED.filter((_, i) => i % 3 === 0),
    );
    expect(escapesAmong(lines, repo)).toEqual([]);
  });

  it('in a repository whose config runs programs, git is refused and nothing allowed runs one', () => {
    const gitLines = ALLOWED.filter((l) => /(^|[;&|] *)git /.test(l));
    expect(gitLines.length).toBeGreaterThan(50);
    for (const line of gitLines)
      expect(classifyCommand(line, { root: hostile, cwd: hostile }).readOnly, line).toBe(false);
    expect(escapesAmong(sized(ALLOWED, gitLines.slice(0, 20)), hostile)).toEqual([]);
  });

  it('a crafted repository nested in the working tree is refused too', () => {
    const place = { root: repo, cwd: repo };
    for (const line of [
      'git -C sub/nested status',
      'cd sub/nested && git status',
      'cd sub && cd nested && git log -p',
      'cd sub/nested | git diff',
    ])
      expect(classifyCommand(line, place).readOnly, line).toBe(false);
    expect(classifyCommand('git status', { root: repo, cwd: join(repo, 'sub', 'nested') }).readOnly).toBe(
      false,
    );
    expect(classifyCommand('git status', place).readOnly).toBe(true);
  });

  it('generated lines the classifier allows write nothing', () => {
    const word = fc.constantFrom(...ALLOWED, ...ALL_ESCAPES.slice(0, 200));
    const join2 = fc.constantFrom(' && ', '; ', ' | ', ' || ', '\n');
    const lines = fc.sample(
      fc.tuple(word, join2, word).map(([a, j, b]) => `${a}${j}${b}`),
      { numRuns: sized(400, 60), seed: SEED },
    );
    expect(escapesAmong(lines, repo)).toEqual([]);
  });
});
