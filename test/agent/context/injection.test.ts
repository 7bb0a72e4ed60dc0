import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import { ScriptedModel } from '../../../src/model/scripted/scripted-model.js';
import type { ContentBlock } from '../../../src/model/types.js';
import { collect } from '../support/workspace.js';
import { gitRepo } from './git-repo.js';

const say = (text: string) => ({ times: 'always' as const, content: [{ type: 'text' as const, text }] });

const firstBlocks = (runtime: AgentRuntime): ContentBlock[] => {
  const first = runtime.messages[0]!;
  return typeof first.content === 'string' ? [] : first.content;
};

describe('session context', () => {
  test('injects identity, role, date, git status and the AGENTS.md/CLAUDE.md chain from the root down to the cwd', async () => {
    await using repo = await gitRepo();
    await repo.file('AGENTS.md', 'Root rule: run npm test before you stop.');
    await repo.file('pkg/CLAUDE.md', 'Pkg rule: keep the public API stable.');
    await repo.file('pkg/sub/AGENTS.md', 'Sub rule: no new dependencies.');
    await repo.file('other/AGENTS.md', 'Other rule: must not appear.');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'start');
    repo.git('checkout', '-q', '-b', 'feature-x');
    await repo.file('pkg/sub/new.txt', 'untracked\n');
    const model = new ScriptedModel({ rules: [say('ok')] });
    const runtime = new AgentRuntime({
      model,
      cwd: join(repo.path, 'pkg', 'sub'),
      tools: [],
      agentName: 'worker-7',
      role: 'You review code for the team.',
    });

    await collect(runtime.submitMessage('Review the package.'));
    const [context, prompt] = firstBlocks(runtime);
    const text = context?.type === 'text' ? context.text : '';
    expect(text.startsWith('<session_context>')).toBe(true);
    expect(text).toContain('You are "worker-7"');
    expect(text).toContain('<role>\nYou review code for the team.\n</role>');
    expect(text).toContain(`Today is ${new Date().toISOString().slice(0, 10)}`);
    expect(text).toContain('## feature-x');
    expect(text).toContain('?? new.txt');
    const order = ['Root rule', 'Pkg rule', 'Sub rule'].map((rule) => text.indexOf(rule));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).toContain('<project_instructions path="pkg/CLAUDE.md">');
    expect(text).not.toContain('Other rule');
    expect(prompt).toEqual({ type: 'text', text: 'Review the package.' });

    await collect(runtime.submitMessage('And now?'));
    const contexts = JSON.stringify(runtime.messages).split('<session_context>').length - 1;
    expect(contexts).toBe(1); // only at the start of the session
    await runtime.close();
  });

  test('outside git, and with injection off', async () => {
    await using repo = await gitRepo();
    const plain = new AgentRuntime({
      model: new ScriptedModel({ rules: [say('ok')] }),
      cwd: repo.path,
      tools: [],
    });
    await collect(plain.submitMessage('Hi.'));
    expect(JSON.stringify(plain.messages[0])).toContain('You are \\"agent\\"');
    expect(JSON.stringify(plain.messages[0])).not.toContain('<role>');

    const off = new AgentRuntime({
      model: new ScriptedModel({ rules: [say('ok')] }),
      cwd: repo.path,
      tools: [],
      context: { inject: false },
    });
    await collect(off.submitMessage('Hi.'));
    expect(off.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Hi.' }] });
  });

  test('invalid context options are refused when the runtime is built, naming the field', async () => {
    await using repo = await gitRepo();
    const build = () =>
      new AgentRuntime({
        model: new ScriptedModel({ rules: [say('ok')] }),
        cwd: repo.path,
        context: { clearToolResultsAt: 0.9, summariseAt: 0.5 },
      });
    expect(build).toThrow(/AgentRuntime options: context\.clearToolResultsAt: clearToolResultsAt must not be above summariseAt/);
  });
});
