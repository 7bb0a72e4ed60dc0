import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real git repository in a temp folder, with an identity in its own config (never the global one). */
export interface TempRepo {
  root: string;
  /** Runs git in the repository (or `cwd`), returning trimmed stdout; throws on failure. */
  git(args: string[], cwd?: string): string;
  write(rel: string, content: string, base?: string): void;
  read(rel: string, base?: string): string;
  /** What a person would see in the main checkout: HEAD, branch, status. */
  snapshot(): { head: string; branch: string; status: string };
  cleanup(): void;
}

/** Ten numbered lines, so two edits of the same line conflict and of different lines do not. */
export const LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

export function makeRepo(): TempRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'teamd-git-')));
  const env = cleanEnv();
  const git = (args: string[], cwd = root): string =>
    execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const write = (rel: string, content: string, base = root): void => {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), content);
  };
  const read = (rel: string, base = root): string => readFileSync(join(base, rel), 'utf8');
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.name', 'Test Person']);
  git(['config', 'user.email', 'person@example.com']);
  git(['config', 'commit.gpgsign', 'false']);
  write('README.md', '# demo\n');
  write('src/a.txt', LINES);
  write('.gitignore', '.env\n.team/state/\n');
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'initial']);
  const snapshot = () => ({
    head: git(['rev-parse', 'HEAD']),
    branch: git(['symbolic-ref', '--short', 'HEAD']),
    status: git(['status', '--porcelain']),
  });
  return { root, git, write, read, snapshot, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The test process may run inside a git hook: never let its GIT_DIR & co. leak into the temp repo. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('GIT_')) delete env[key];
  return env;
}

/** Replaces line `n` (1-based) of ten numbered lines. */
export function withLine(n: number, text: string): string {
  return LINES.split('\n')
    .map((line, i) => (i === n - 1 ? text : line))
    .join('\n');
}
