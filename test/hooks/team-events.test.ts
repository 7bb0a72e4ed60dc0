/**
 * TaskCreated: a real hook script refuses a task before `task_create` writes
 * it (exit 2, its stderr the reason); another task is created and the hook saw
 * Claude Code's fields.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createHookRunner } from '../../src/hooks/runner.js';
import { taskCreatedHook } from '../../src/hooks/team-events.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { TASK_WRITE } from '../../src/teammate/tools/task-write.js';
import { createToolContext } from '../../src/tools/context.js';

it('a TaskCreated hook refuses a task with exit 2; an allowed one is written', async () => {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-taskcreated-')));
  try {
    const log = path.join(dir, 'seen.jsonl');
    const runner = createHookRunner(
      {
        TaskCreated: [
          {
            hooks: [
              {
                type: 'command',
                command: `p=$(cat); echo "$p" >> ${log}; case "$p" in *forbidden*) echo "no forbidden work" >&2; exit 2;; esac`,
              },
            ],
          },
        ],
      },
      { cwd: dir },
    );
    const tasks = await TaskStore.open(dir);
    const base = () => ({ session_id: 's1', transcript_path: '/t/s1.jsonl', teammate_name: 'ann', team_name: 'repo' });
    const ctx = createToolContext({
      root: dir,
      services: { team: { tasks, mailbox: null, roster: () => [], self: 'ann', beforeCreate: taskCreatedHook(runner, base) } },
    });
    const refused = await TASK_WRITE.teammate.run({ subject: 'do forbidden things', id: 'bad' }, ctx);
    expect(refused).toMatchObject({ isError: true, content: expect.stringContaining('no forbidden work') });
    expect(existsSync(path.join(dir, '.tasks', 'bad.json'))).toBe(false);
    const made = await TASK_WRITE.teammate.run({ subject: 'fine work', id: 'good', description: 'd' }, ctx);
    expect(made.isError).toBeUndefined();
    expect(existsSync(path.join(dir, '.tasks', 'good.json'))).toBe(true);
    const seen = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(seen[1]).toMatchObject({
      hook_event_name: 'TaskCreated',
      session_id: 's1',
      transcript_path: '/t/s1.jsonl',
      task_id: 'good',
      task_subject: 'fine work',
      task_description: 'd',
      teammate_name: 'ann',
      team_name: 'repo',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
