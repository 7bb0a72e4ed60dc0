/**
 * The two workloads of `bench/tokens`, each a script for the fake server,
 * the tasks' subjects, and the files seeded into the repository first.
 *
 * - `tiny`: three-turn tasks (two bash calls, then a summary) of ≈ 2k-token
 *   requests — the fixed cost of a team at its most visible.
 * - `realistic`: tasks of the size real ones have: each reads three real
 *   source files (this repository's own, 150–250 lines each), edits one,
 *   checks the edit with bash, then answers with a summary.
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
  name: 'tiny' | 'realistic';
  script: ScriptInput;
  subject: (id: string) => string;
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
  step(at, use('send_message', { to: 'w2', content: mail }), 'Task t1:'),
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

/** Each task gets three real files in `src/<id>/`: main.ts (with its marker line), helper.ts and peer.ts. */
async function seedSources(repo: string, ids: readonly string[]): Promise<void> {
  const sources = await realSources();
  for (const [i, id] of ids.entries()) {
    await mkdir(join(repo, 'src', id), { recursive: true });
    for (const [k, file] of FILES.entries()) {
      const source = await readFile(sources[(FILES.length * i + k) % sources.length]!, 'utf8');
      await writeFile(join(repo, 'src', id, file), k === 0 ? `${marker(id)}\n${source}` : source);
    }
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  git('add', 'src');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@teamd.invalid', 'commit', '-q', '-m', 'sources');
}
