/**
 * The three workloads of `bench/tokens`, each a script for the fake server,
 * the tasks' subjects, and the files seeded into the repository first.
 *
 * - `tiny`: three-turn tasks (two bash calls, then a summary) of ≈ 2k-token
 *   requests — the fixed cost of a team at its most visible.
 * - `realistic`: tasks of the size real ones have: each reads three real
 *   source files (this repository's own, 150–250 lines each), edits one,
 *   checks the edit with bash, then answers with a summary.
 * - `long`: tasks shaped as a coding agent works a real change, 19 calls:
 *   it finds its way with glob and grep, reads parts of six real files,
 *   makes three edits, checks them with bash, then answers.
 * In both, the first task also mails a teammate, which answers in a mail session.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptInput } from '../../src/model/scripted/schema.js';

type Content = NonNullable<ScriptInput['rules']>[number]['content'];
type Rule = NonNullable<ScriptInput['rules']>[number];

export interface Workload {
  name: 'tiny' | 'realistic' | 'long';
  script: ScriptInput;
  subject: (id: string) => string;
  /** Model calls a teammate may make per task (the team's `maxTurns`), when the default (40) is too few. */
  maxTurns?: number;
  /** Writes and commits the files the tasks work on. */
  seed: (repo: string, ids: readonly string[]) => Promise<void>;
}

const step = (turn: number, content: Content, conversation = 'Task (\\S+):'): Rule => ({
  conversation,
  turn,
  times: 'always',
  content,
});
const use = (name: string, input: Record<string, unknown>): Content => [{ type: 'tool_use', name, input }];
const text = (t: string): Content => [{ type: 'text', text: t }];
const MAIL_ANSWER: Rule = { conversation: 'You have new messages', times: 'always', content: text('Noted.') };

/** The first task's steps `at` and `at + 1`: a message to w2, then its summary. */
const firstTaskMails = (at: number, mail: string, summary: string): Rule[] => [
  step(at, use('team', { do: 'send', to: 'w2', text: mail }), 'Task t1:'),
  step(at + 1, text(summary), 'Task t1:'),
];

export const TINY: Workload = {
  name: 'tiny',
  subject: (id) => `write out/${id}.txt`,
  seed: async () => undefined,
  script: {
    rules: [
      ...firstTaskMails(2, 't1 is done: out/t1.txt holds its output.', 'Wrote out/t1.txt and told w2.'),
      step(0, use('bash', { command: 'mkdir -p out && echo $1 > out/$1.txt' })),
      step(1, use('bash', { command: 'cat out/$1.txt && ls out | wc -l' })),
      step(2, text('Wrote out/$1.txt and checked it.')),
      MAIL_ANSWER,
    ],
  },
};

const FILES = ['main.ts', 'helper.ts', 'peer.ts'];
const marker = (id: string): string => `// TODO(${id}): say why this module exists`;

export const REALISTIC: Workload = {
  name: 'realistic',
  subject: (id) => `document src/${id}/main.ts`,
  seed: seedSources,
  script: {
    rules: [
      ...firstTaskMails(5, 't1 is done: src/t1/main.ts says why it exists.', 'Documented src/t1/main.ts and told w2.'),
      ...FILES.map((file, turn) => step(turn, use('read', { file_path: `src/$1/${file}` }))),
      step(3, use('edit', { file_path: 'src/$1/main.ts', old_string: marker('$1'), new_string: '// $1: the module of its task, documented' })),
      step(4, use('bash', { command: 'grep -n "$1:" src/$1/main.ts && git diff --stat' })),
      step(5, text('Documented src/$1/main.ts (read it, helper.ts and peer.ts; the diff is one line).')),
      MAIL_ANSWER,
    ],
  },
};

const LONG_FILES = ['main.ts', 'helper.ts', 'peer.ts', 'store.ts', 'util.ts', 'types.ts'];
const marked = (file: string): string => `src/$1/${file}`;
const documented = (file: string): Content =>
  use('edit', { file_path: marked(file), old_string: marker('$1'), new_string: `// $1: ${file}, documented` });
/** The long task's 18 tool calls, in order (the 19th call answers). */
const LONG_CALLS: Content[] = [
  use('glob', { pattern: 'src/$1/*.ts' }),
  use('grep', { pattern: '^export', path: 'src/$1', output_mode: 'content', '-n': true, head_limit: 30 }),
  use('read', { file_path: marked('main.ts'), limit: 80 }),
  use('read', { file_path: marked('helper.ts'), limit: 60 }),
  use('grep', { pattern: '^import', path: marked('peer.ts'), output_mode: 'content', '-n': true }),
  use('read', { file_path: marked('peer.ts'), limit: 60 }),
  use('read', { file_path: marked('store.ts'), limit: 60 }),
  use('grep', { pattern: 'function', path: 'src/$1', output_mode: 'count' }),
  documented('main.ts'),
  use('bash', { command: 'git diff --stat' }),
  use('read', { file_path: marked('util.ts'), limit: 60 }),
  use('grep', { pattern: 'TODO', path: 'src/$1', output_mode: 'content', '-n': true }),
  documented('helper.ts'),
  use('bash', { command: 'grep -c "$1" src/$1/*.ts' }),
  use('read', { file_path: marked('main.ts'), limit: 20 }),
  documented('peer.ts'),
  use('bash', { command: 'git diff --stat && git status --short' }),
  use('bash', { command: 'wc -l src/$1/*.ts' }),
];

export const LONG: Workload = {
  name: 'long',
  subject: (id) => `document the modules of src/${id}/`,
  seed: (repo, ids) => seedSources(repo, ids, LONG_FILES, 3),
  script: {
    rules: [
      ...firstTaskMails(LONG_CALLS.length, 't1 is done: src/t1/ says why its modules exist.', 'Documented src/t1/ and told w2.'),
      ...LONG_CALLS.map((call, turn) => step(turn, call)),
      step(LONG_CALLS.length, text('Documented main.ts, helper.ts and peer.ts of src/$1/ (three one-line edits).')),
      MAIL_ANSWER,
    ],
  },
};

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** This repository's source files of 150–250 lines, in a fixed order (real code, not filler). */
async function realSources(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.ts') && (await stat(path)).size > 4_000) {
        const lines = (await readFile(path, 'utf8')).split('\n').length;
        if (lines >= 150 && lines <= 250) found.push(path);
      }
    }
  };
  await walk(join(ROOT, 'src'));
  return found;
}

/** Each task gets real files in `src/<id>/` (main.ts, helper.ts, peer.ts, …); the first `markedCount` start with its marker line. */
async function seedSources(repo: string, ids: readonly string[], files = FILES, markedCount = 1): Promise<void> {
  const sources = await realSources();
  for (const [i, id] of ids.entries()) {
    await mkdir(join(repo, 'src', id), { recursive: true });
    for (const [k, file] of files.entries()) {
      const source = await readFile(sources[(files.length * i + k) % sources.length]!, 'utf8');
      await writeFile(join(repo, 'src', id, file), k < markedCount ? `${marker(id)}\n${source}` : source);
    }
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  git('add', 'src');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@teamd.invalid', 'commit', '-q', '-m', 'sources');
}
