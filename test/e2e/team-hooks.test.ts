/**
 * Hooks in a team run (real worker threads, real git worktrees): a
 * teammate's tool hooks run in the task's worktree with CLAUDE_PROJECT_DIR the
 * repository root; TaskCompleted and TeammateIdle carry the teammate's
 * session and a transcript file that exists; a hook that cannot start shows
 * in the event log and in `teamd status`.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readEvents } from '../../src/observe/event-log.js';
import { teamd } from '../cli/run-teamd.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';

const team = teamPerTest();
const logs = realpathSync(mkdtempSync(join(tmpdir(), 'teamd-team-hooks-')));
afterEach(() => rmSync(logs, { recursive: true, force: true }));

function recorder(): string {
  const file = join(logs, 'rec.sh');
  writeFileSync(file, `#!/bin/sh\npayload=$(cat)\nprintf '%s\\t%s\\t%s\\n' "$CLAUDE_PROJECT_DIR" "$(pwd)" "$payload" >> ${join(logs, 'log.tsv')}\n`);
  chmodSync(file, 0o755);
  return file;
}

it('teammate hooks: worktree cwd, repository CLAUDE_PROJECT_DIR, session fields on team events, a failed start reported', async () => {
  const rec = recorder();
  const hook = [{ hooks: [{ type: 'command', command: rec }] }];
  const r = team.repo(
    makeTeamRepo({
      script: genericTaskScript(),
      config: {
        teammates: [{ name: 'ann' }],
        permissions: { defaultMode: 'bypassPermissions' },
        hooks: {
          PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: rec }] }],
          PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'no-such-hook-program-teamd' }] }],
          TaskCompleted: hook,
          TeammateIdle: hook,
        },
      },
    }),
  );
  r.writeTask('t1', { subject: 'make t1', description: 'write the file' });
  const { lead } = await startLead(r);
  team.lead(lead);
  await until(lead, () => tasksOnDisk(r.dir).get('t1')?.status === 'completed', 40_000, 't1 completed');
  await until(lead, () => existsSync(join(logs, 'log.tsv')) && readFileSync(join(logs, 'log.tsv'), 'utf8').includes('TeammateIdle'), 20_000, 'the idle hook');

  const rows = readFileSync(join(logs, 'log.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const [projectDir, cwd, payload] = l.split('\t');
      return { projectDir, cwd, payload: JSON.parse(payload!) as Record<string, unknown> };
    });
  const by = (event: string) => rows.find((row) => row.payload.hook_event_name === event)!;
  const pre = by('PreToolUse');
  expect(pre.projectDir).toBe(r.dir);
  expect(pre.cwd).not.toBe(r.dir);
  expect(pre.payload).toMatchObject({ tool_name: 'Write', cwd: pre.cwd, permission_mode: 'bypassPermissions' });
  expect((pre.payload.tool_input as { file_path: string }).file_path).toBe(join(pre.cwd!, 'out/t1.txt'));

  for (const event of ['TaskCompleted', 'TeammateIdle']) {
    const row = by(event);
    expect(row.projectDir).toBe(r.dir);
    expect(row.payload).toMatchObject({ teammate_name: 'ann', session_id: pre.payload.session_id, transcript_path: pre.payload.transcript_path });
    expect(row.payload.session_id).not.toBe('');
    expect(existsSync(row.payload.transcript_path as string)).toBe(true);
  }
  expect(by('TaskCompleted').payload).toMatchObject({ task_id: 't1', task_subject: 'make t1', task_description: 'write the file' });
  const transcript = readFileSync(by('TaskCompleted').payload.transcript_path as string, 'utf8');
  expect(transcript).toContain('wrote out/t1.txt');

  expect(readEvents(r.dir)).toContainEqual(
    expect.objectContaining({ type: 'notice', agent: 'ann', message: expect.stringContaining('could not start (exit 127)') }),
  );
  const status = await teamd(r.dir, 'status');
  expect(status.stdout).toMatch(/problem: .*hooks\.PostToolUse.*no-such-hook-program-teamd.*could not start/);
}, 90_000);
