import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import type { ContentBlock, ConversationMessage } from '../../src/model/types.js';
import { backgroundShells } from '../../src/tools/bash-background.js';
import { bashKillTool } from '../../src/tools/bash-kill.js';
import { bashOutputTool } from '../../src/tools/bash-output.js';
import { bashTool } from '../../src/tools/bash.js';
import { builtinTools } from '../../src/tools/index.js';
import { processAlive } from '../../src/tools/process-group.js';
import { closeSessionTasks, setTaskNotifier, type TaskNotification } from '../../src/tools/session-tasks.js';
import { defineTool } from '../../src/tools/types.js';
import { collect, tempDir, waitFor } from '../agent/support/workspace.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

const idOf = (content: string): string => /id (bash-\d+)/.exec(content)?.[1] ?? '';

describe('background bash commands', () => {
  let t: TempRoot;
  let notified: TaskNotification[];
  beforeEach(async () => {
    t = await createTempRoot();
    notified = [];
    setTaskNotifier(t.ctx.session, (n) => notified.push(n));
  });
  afterEach(async () => {
    await closeSessionTasks(t.ctx.session);
    await t.close();
  });

  it('returns an id at once, logs the output, and bash_output reads only what is new', async () => {
    // the command itself waits for the file `go`, which the test creates after the first read
    const command = 'echo one; while [ ! -f go ]; do sleep 0.02; done; echo two';
    const started = await t.run(bashTool, { command, run_in_background: true });
    expect(started.isError ?? false).toBe(false);
    const id = idOf(started.content);
    expect(id).toBe('bash-1');
    const shell = backgroundShells(t.ctx).get(id)!;
    await waitFor(
      async () => (await readFile(shell.log.file, 'utf8')).includes('one'),
      'the first line in the log',
    );
    const first = await t.run(bashOutputTool, { bash_id: id });
    expect(first.content).toBe('[bash-1: running]\none');
    expect((await t.run(bashOutputTool, { bash_id: id })).content).toBe('[bash-1: running]\n(no new output)');
    await t.file('go', '');
    await shell.ended;
    const second = await t.run(bashOutputTool, { bash_id: id });
    expect(second.content).toBe('[bash-1: exited with code 0]\ntwo');
    expect(await t.run(bashOutputTool, { bash_id: 'bash-9' })).toMatchObject({ isError: true });
  });

  it('filters new lines with a regex', async () => {
    const { content } = await t.run(bashTool, {
      command: 'printf "a1\\nb2\\na3\\n"',
      run_in_background: true,
    });
    await backgroundShells(t.ctx).get(idOf(content))!.ended;
    const out = await t.run(bashOutputTool, { bash_id: idOf(content), filter: '^a' });
    expect(out.content).toBe('[bash-1: exited with code 0]\na1\na3');
    expect(await t.run(bashOutputTool, { bash_id: 'bash-1', filter: '(' })).toMatchObject({ isError: true });
  });

  it('notifies once when a command ends by itself, with its exit code and output tail', async () => {
    const { content } = await t.run(bashTool, {
      command: 'echo last words; exit 3',
      run_in_background: true,
    });
    await backgroundShells(t.ctx).get(idOf(content))!.ended;
    expect(notified).toHaveLength(1);
    expect(notified[0]!.text).toContain('<task_id>bash-1</task_id>');
    expect(notified[0]!.text).toContain('<exit_code>3</exit_code>');
    expect(notified[0]!.text).toContain('<status>failed</status>');
    expect(notified[0]!.text).toContain('<output_tail>\nlast words\n</output_tail>');
  });

  it('bash_kill stops the whole process group, and no notification follows', async () => {
    const pidFile = path.join(t.root, 'pid');
    const { content } = await t.run(bashTool, {
      command: `sleep 30 & echo $! > ${pidFile}; wait`,
      run_in_background: true,
    });
    await waitFor(
      async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== '',
      'the child pid',
    );
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    expect(processAlive(child)).toBe(true);
    expect((await t.run(bashKillTool, { bash_id: idOf(content) })).content).toBe('Killed bash-1.');
    await waitFor(() => !processAlive(child), 'the background child to die');
    expect(notified).toEqual([]);
    expect((await t.run(bashKillTool, { bash_id: 'bash-1' })).content).toBe(
      'bash-1 had already ended: killed.',
    );
  });
});

/** Waits until a background command has ended (so its notification is queued before this result returns). */
const waitBackground = defineTool({
  name: 'wait_background',
  description: 'Waits for a background command (test tool).',
  inputSchema: z.strictObject({ id: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async ({ id }, ctx) => {
    await backgroundShells(ctx).get(id)?.ended;
    return { content: `waited for ${id}` };
  },
});

const blocks = (messages: readonly ConversationMessage[]): ContentBlock[] =>
  messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
const notificationCount = (messages: readonly ConversationMessage[]): number =>
  blocks(messages).filter((b) => b.type === 'text' && b.text.includes('<task_notification>')).length;
const insideResults = (messages: readonly ConversationMessage[]): boolean =>
  blocks(messages).some(
    (b) => b.type === 'tool_result' && JSON.stringify(b.content).includes('<task_notification>\\n'),
  );

describe('background commands in a run', () => {
  it('the notification joins the conversation at the next turn, beside the tool results, exactly once', async () => {
    await using dir = await tempDir();
    const model = new ScriptedModel({
      steps: [
        {
          content: [
            {
              type: 'tool_use',
              id: 't_bg',
              name: 'bash',
              input: { command: 'echo built', run_in_background: true },
            },
          ],
        },
        {
          afterTool: 'bash',
          content: [{ type: 'tool_use', id: 't_wait', name: 'wait_background', input: { id: 'bash-1' } }],
        },
        {
          match: '<task_notification>[\\s\\S]*built',
          content: [{ type: 'text', text: 'The build is done.' }],
        },
        { match: 'Anything else', content: [{ type: 'text', text: 'No.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model, cwd: dir.path, tools: [...builtinTools(), waitBackground] });
    const first = await collect(runtime.submitMessage('Build in the background.'));
    expect(first.result).toMatchObject({ subtype: 'success', result: 'The build is done.' });
    expect(first.events.some((e) => e.type === 'system' && e.subtype === 'queued_input')).toBe(true);
    await collect(runtime.submitMessage('Anything else?'));
    expect(notificationCount(runtime.messages)).toBe(1);
    expect(insideResults(runtime.messages)).toBe(false);
    model.assertComplete();
    await runtime.close();
  });

  it('a command that ends while the agent is idle is reported with the next prompt; close() kills what still runs', async () => {
    await using dir = await tempDir();
    const model = new ScriptedModel({
      steps: [
        {
          content: [
            {
              type: 'tool_use',
              id: 't_quick',
              name: 'bash',
              input: { command: 'echo quick', run_in_background: true },
            },
            {
              type: 'tool_use',
              id: 't_slow',
              name: 'bash',
              input: { command: 'echo $$$$ > slow.pid; exec sleep 30', run_in_background: true },
            }, // `$$` is a literal $ in scripts
          ],
        },
        { afterTool: 'bash', content: [{ type: 'text', text: 'Started both.' }] },
        {
          match: 'Status\\?[\\s\\S]*<task_id>bash-1</task_id>',
          content: [{ type: 'text', text: 'Quick one is done.' }],
        },
      ],
    });
    const permissionPolicy = { defaultMode: 'bypassPermissions' as const, allow: [], deny: [], ask: [] };
    const runtime = new AgentRuntime({ model, cwd: dir.path, permissionPolicy });
    await collect(runtime.submitMessage('Start two commands.'));
    const pidFile = path.join(dir.path, 'slow.pid');
    await waitFor(
      async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== '',
      'the slow pid',
    );
    // the quick command ends while no run is going: its notification waits for the next prompt
    await waitFor(
      () => backgroundShells({ session: sessionOf(runtime) }).get('bash-1')?.status !== 'running',
      'bash-1 to end',
    );
    const second = await collect(runtime.submitMessage('Status?'));
    expect(second.result.result).toBe('Quick one is done.');
    expect(notificationCount(runtime.messages)).toBe(1);
    const slow = Number((await readFile(pidFile, 'utf8')).trim());
    expect(processAlive(slow)).toBe(true);
    await runtime.close();
    await waitFor(() => !processAlive(slow), 'the background command to be killed by close()');
    model.assertComplete();
  });
});

/** The runtime's tool session (test access to its background registry). */
function sessionOf(runtime: AgentRuntime): Map<string, unknown> {
  return (runtime as unknown as { toolContext: { session: Map<string, unknown> } }).toolContext.session;
}
