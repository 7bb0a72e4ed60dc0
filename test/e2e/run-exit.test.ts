/**
 * `teamd run` as a person or a script sees it: real CLI processes, real
 * worker threads, a scripted model, a real terminal (tmux) for the plan
 * review. Exit 0 only when every task of this goal completed, 1 when one
 * failed, 130 when interrupted; the summary counts this goal's tasks only;
 * `--review-plan` refuses without a terminal, and Ctrl-C or `teamd stop` at
 * its prompt ends the run with 130 and no stack trace.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { Tmux } from '../dashboard/support/tmux.js';
import { waitFor } from '../dashboard/support/fake-terminal.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { teamdArgs } from '../support/teamd-cli.js';
import { spawnCli, waitForOutput } from './support/cli.js';
import { makeTeamRepo, type TeamRepo } from './support/harness.js';

let repo: TeamRepo | undefined;
let tmux: Tmux | undefined;
afterEach(() => {
  tmux?.close();
  tmux = undefined;
  repo?.cleanup();
});

/** The lead plans `ids` (task `bad` fails on the model's error, `hang` waits forever); the rest write a file. */
function goalScript(ids: string[]): ScriptInput {
  return {
    rules: [
      {
        agent: 'lead',
        match: 'Goal:',
        content: ids.map((id) => ({
          type: 'tool_use' as const,
          name: 'task_write',
          input: { id, subject: `do ${id}` },
        })),
      },
      {
        agent: 'lead',
        afterTool: 'task_write',
        times: 'always',
        content: [{ type: 'text', text: 'Planned.' }],
      },
      {
        conversation: 'Task bad:',
        turn: 0,
        times: 'always',
        error: { kind: 'invalid_request', message: 'the model refused this request' },
      },
      {
        conversation: 'Task hang:',
        turn: 0,
        content: [
          { type: 'tool_use', name: 'bash', input: { command: 'while [ ! -f never ]; do sleep 0.05; done' } },
        ],
      },
      {
        conversation: 'Task (\\S+):',
        turn: 0,
        times: 'always',
        content: [{ type: 'tool_use', name: 'write', input: { file_path: 'out/$1.txt', content: 'done\n' } }],
      },
      {
        conversation: 'Task (\\S+):',
        turn: 1,
        times: 'always',
        content: [{ type: 'text', text: 'wrote out/$1.txt' }],
      },
    ],
  };
}

function team(ids: string[], extra: Record<string, unknown> = {}): TeamRepo {
  const r = (repo = makeTeamRepo({
    script: goalScript(ids),
    config: {
      teammates: [{ name: 'ann' }],
      worktrees: { mode: 'off' },
      permissions: { defaultMode: 'bypassPermissions' },
      ...extra,
    },
  }));
  // Older work on the board: a completed and a failed task the summary must not count.
  const old = (id: string, status: string) =>
    writeFileSync(join(r.dir, '.tasks', `${id}.json`), JSON.stringify({ id, subject: `old ${id}`, status }));
  old('old-done', 'completed');
  old('old-failed', 'failed');
  return r;
}

const run = (r: TeamRepo, ...args: string[]) => spawnCli(['run', 'the goal', '--dir', r.dir, ...args]);

it('exit 0 when every task of the goal completed; the summary counts only them', async () => {
  const r = team(['a'], { maxBudgetUsd: 5, taskBudgetUsd: 1 });
  const cli = run(r);
  expect(await cli.exited, cli.output()).toBe(0);
  expect(cli.output()).toMatch(/Finished in .* 1 completed, 0 failed, 0 cancelled\./);
  expect(cli.output()).toMatch(/team finished: 1 completed, 0 failed/);
  expect(cli.output()).toMatch(/^budgets: team \$5\.00 \(spent \$0\.0000\), per task \$1\.00$/m);
}, 60_000);

it('exit 1 when a task of the goal failed', async () => {
  const r = team(['a', 'bad']);
  const cli = run(r);
  await waitForOutput(cli, /^budgets: none/m);
  expect(await cli.exited, cli.output()).toBe(1);
  expect(cli.output()).toMatch(/1 completed, 1 failed, 0 cancelled/);
  expect(cli.output()).toMatch(/failed bad: .*the model refused this request/);
}, 60_000);

it('exit 130 when interrupted while the team works', async () => {
  const r = team(['hang']);
  const cli = run(r);
  await waitForOutput(cli, /ann claimed hang/);
  cli.child.kill('SIGINT');
  expect(await cli.exited, cli.output()).toBe(130);
  expect(cli.output()).toMatch(/Interrupted after .*1 back on the board/);
}, 60_000);

it('--review-plan without a terminal refuses at once, exit 1, nothing planned', async () => {
  const r = team(['a']);
  const cli = run(r, '--review-plan'); // stdin is /dev/null
  expect(await cli.exited).toBe(1);
  expect(cli.output()).toMatch(
    /^teamd: error: --review-plan asks you at the terminal, and stdin is not a terminal/m,
  );
  expect(readdirSync(join(r.dir, '.tasks')).sort()).toEqual(['old-done.json', 'old-failed.json']);
}, 60_000);

describe('--review-plan in a terminal', () => {
  const inTmux = (r: TeamRepo) => {
    const exitFile = join(r.dir, 'exit-code');
    tmux = new Tmux();
    tmux.start(
      'run',
      `${[process.execPath, ...teamdArgs()].map((a) => `'${a}'`).join(' ')} run 'the goal' --review-plan --dir '${r.dir}' 2> '${r.dir}/err.txt'; echo $? > '${exitFile}'`,
      { columns: 160, rows: 40 },
    );
    return {
      exitFile,
      code: async () => (
        await waitFor(
          () => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '',
          'the exit code',
          30_000,
        ),
        Number(readFileSync(exitFile, 'utf8').trim())
      ),
    };
  };

  it('Ctrl-C at the prompt: exit 130, no stack trace, the planned tasks cancelled', async () => {
    const r = team(['a']);
    const t = inTmux(r);
    await tmux!.waitForScreen('run', 'Approve the plan?');
    tmux!.keys('run', 'C-c');
    expect(await t.code()).toBe(130);
    const out = readFileSync(join(r.dir, 'err.txt'), 'utf8');
    expect(out).toMatch(
      /teamd: error: interrupted at the plan review; the 1 planned task\(s\) were cancelled/,
    );
    expect(out).not.toMatch(/AbortError|at .*\.ts:\d+/);
    expect(tasksOnDisk(r.dir).get('a')?.status).toBe('cancelled');
  }, 60_000);

  it('`teamd stop` ends a run waiting at the prompt', async () => {
    const r = team(['a']);
    const t = inTmux(r);
    await tmux!.waitForScreen('run', 'Approve the plan?');
    const stop = spawnCli(['stop', '--dir', r.dir]);
    expect(await stop.exited, stop.output()).toBe(0);
    expect(await t.code()).toBe(130);
    expect(tasksOnDisk(r.dir).get('a')?.status).toBe('cancelled');
  }, 60_000);
});
