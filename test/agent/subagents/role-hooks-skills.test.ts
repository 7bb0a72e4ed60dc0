import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import type { PermissionPolicy } from '../../../src/agent/permissions/types.js';
import { loadSkills } from '../../../src/agent/subagents/skills.js';
import type { ModelClient, ModelRequest } from '../../../src/model/types.js';
import { ScriptedModel } from '../../../src/model/scripted/scripted-model.js';
import { collect, resultText, tempDir, toolResults } from '../support/workspace.js';

const BYPASS: PermissionPolicy = { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] };
const say = (text: string) => [{ type: 'text' as const, text }];
const use = (name: string, input: Record<string, unknown>) => [{ type: 'tool_use' as const, name, input }];

const GUARDED = (dir: string) => `---
name: guarded
description: Works without a shell.
skills:
  - house-style
  - missing-skill
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "echo 'no shell in this role' >&2; exit 2"
  Stop:
    - hooks:
        - type: command
          command: "cat > ${dir}/role-stop.json"
---
You work carefully.
`;

/** Records every request, so a test can read the system prompt each agent got. */
function recording(model: ScriptedModel): { model: ModelClient; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return { requests, model: { model: model.model, stream: (r) => (requests.push(r), model.stream(r)) } };
}

describe("an agent file's hooks and skills", () => {
  test('apply while that subagent runs: its hooks beside the parent\'s (Stop as SubagentStop), its skills in its prompt', async () => {
    await using dir = await tempDir();
    await mkdir(join(dir.path, '.claude', 'agents'), { recursive: true });
    await mkdir(join(dir.path, '.claude', 'skills', 'house-style'), { recursive: true });
    await writeFile(join(dir.path, '.claude', 'agents', 'guarded.md'), GUARDED(dir.path));
    await writeFile(
      join(dir.path, '.claude', 'skills', 'house-style', 'SKILL.md'),
      '---\nname: house-style\ndescription: How we write.\n---\nHOUSE-STYLE: short sentences.\n',
    );
    const scripted = new ScriptedModel({
      steps: [
        { agent: 'lead', content: use('task', { description: 'd', prompt: 'list files', subagent_type: 'guarded' }) },
        { agent: 'lead:guarded', content: use('bash', { command: 'ls' }) },
        { agent: 'lead:guarded', afterTool: 'bash', match: 'no shell in this role', content: say('I could not list.') },
        { agent: 'lead', afterTool: 'task', content: use('bash', { command: 'echo parent-ran' }) },
        { agent: 'lead', afterTool: 'bash', match: 'parent-ran', content: say('done') },
      ],
    });
    const { model, requests } = recording(scripted);
    const runtime = new AgentRuntime({
      model,
      cwd: dir.path,
      agentName: 'lead',
      permissionPolicy: BYPASS,
      subagents: { userRolesDir: null },
    });
    const { result } = await collect(runtime.submitMessage('go'));
    expect(result).toMatchObject({ subtype: 'success', result: 'done' });
    const taskAnswer = resultText([...toolResults(runtime.messages).values()][0]);
    expect(taskAnswer).toContain('I could not list.');
    expect(taskAnswer).toMatch(/skills: no skill "missing-skill"/);
    const inner = requests.find((r) => r.agent === 'lead:guarded')!;
    expect(inner.system).toContain('HOUSE-STYLE: short sentences.');
    expect(inner.system).not.toContain('description: How we write.');
    expect(requests.find((r) => r.agent === 'lead')!.system).not.toContain('HOUSE-STYLE');
    const stop = JSON.parse(await readFile(join(dir.path, 'role-stop.json'), 'utf8'));
    expect(stop).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'guarded' });
    scripted.assertComplete();
    await runtime.close();
  });

  test('skills come from the project, then the user; a bad or missing name is a warning', async () => {
    await using dir = await tempDir();
    const user = join(dir.path, 'user-skills');
    await mkdir(join(user, 'mine'), { recursive: true });
    await writeFile(join(user, 'mine', 'SKILL.md'), 'USER SKILL');
    const loaded = await loadSkills(['mine', '../etc', 'nope'], join(dir.path, 'repo'), 'a.md', user);
    expect(loaded.text).toContain('<skill name="mine">\nUSER SKILL\n</skill>');
    expect(loaded.warnings).toEqual([
      'a.md: skills: no skill "../etc" in .claude/skills/ (nor the user\'s); left out',
      'a.md: skills: no skill "nope" in .claude/skills/ (nor the user\'s); left out',
    ]);
    expect(existsSync(join(dir.path, 'repo'))).toBe(false);
  });
});
