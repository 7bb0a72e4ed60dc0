import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { loadRoles } from '../../../src/agent/subagents/roles.js';
import { teamdToolNames } from '../../../src/tools/claude-names.js';
import { applyAgentRole } from '../../../src/lead/agent-role.js';
import { TeammateConfigSchema } from '../../../src/config/schema.js';
import { tempDir } from '../support/workspace.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/claude-code/agents');

async function projectWithFixtures(root: string): Promise<void> {
  await mkdir(join(root, '.claude'), { recursive: true });
  await cp(FIXTURES, join(root, '.claude', 'agents'), { recursive: true });
}

describe('agent files as Claude Code writes them', () => {
  test('every fixture shape loads: names, descriptions, mapped tools, models, modes', async () => {
    await using dir = await tempDir();
    await projectWithFixtures(dir.path);
    const { roles, problems } = await loadRoles(dir.path, [], { userDir: null });
    expect(problems).toEqual([]);
    expect(roles.get('schema-checker')).toMatchObject({ tools: ['read', 'grep', 'glob'], model: 'sonnet' });
    expect(roles.get('schema-checker')!.description).toContain('<example>Context: the user added a column.');
    expect(roles.get('release-notes')!.description).toContain('\n<example>\nuser: "write the notes for 2.0"');
    expect(roles.get('api-designer')).toMatchObject({
      description: 'Designs HTTP APIs: resources, status codes, pagination and error shapes.',
      tools: ['read', 'write', 'edit', 'bash', 'bash_output', 'bash_kill'],
      allowRules: ['Bash(curl:*)'],
      disallowedTools: ['web_search'],
      permissionMode: 'acceptEdits',
      maxTurns: 12,
    });
    expect(roles.get('incident-helper')).toMatchObject({
      description: 'Helps during an incident.\nReads logs; never restarts services.',
      permissionMode: 'plan',
      model: 'inherit',
    });
    expect(roles.get('incident-helper')!.tools).toContain('mcp__pager__list_incidents');
    expect(roles.get('windows-author')).toMatchObject({
      tools: ['read', 'edit'],
      prompt: 'Keep CRLF files as they are.',
    });
    expect(roles.get('traducteur')!.description).toContain('日本語');
    expect(roles.get('frontend-reviewer')).toMatchObject({ model: 'opus' }); // two folders down
  });

  test('unknown keys, unknown tools and shadowed names are warnings naming file and field, never drops', async () => {
    await using dir = await tempDir();
    await projectWithFixtures(dir.path);
    const { roles, warnings } = await loadRoles(dir.path, [], { userDir: null });
    expect(roles.get('odd-one')!.tools).toEqual([
      'read',
      'edit',
      'bash',
      'bash_output',
      'bash_kill',
      'frobnicate',
      'glob',
    ]);
    const odd = warnings.filter((w) => w.includes('unknown-things.md'));
    expect(odd).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/unknown-things\.md: mode: unknown key, ignored$/),
        expect.stringMatching(/unknown-things\.md: allowed-tools: unknown key/),
        expect.stringMatching(/unknown-things\.md: tools: "frobnicate" is not a teamd or Claude Code tool/),
        expect.stringMatching(/tools: MultiEdit is edit here/),
      ]),
    );
    expect(warnings.some((w) => /color|effort/.test(w))).toBe(false); // UI keys are ignored quietly
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /nested\/schema-checker\.md: name: "schema-checker" is also defined in example-blocks\.md/,
      ),
    );
    expect(roles.get('schema-checker')!.source).toMatch(/agents\/example-blocks\.md$/);
  });

  test("precedence: the project's role wins over the user's; the user's fill in; options win over both", async () => {
    await using dir = await tempDir();
    const user = join(dir.path, 'home-agents');
    const project = join(dir.path, 'repo');
    await mkdir(join(user, 'team'), { recursive: true });
    await mkdir(join(project, '.claude', 'agents'), { recursive: true });
    const role = (name: string, d: string) => `---\nname: ${name}\ndescription: ${d}\n---\nPrompt of ${d}.\n`;
    await writeFile(join(user, 'team', 'shared.md'), role('shared', 'user'));
    await writeFile(join(user, 'mine.md'), role('mine', 'user'));
    await writeFile(join(project, '.claude', 'agents', 'shared.md'), role('shared', 'project'));
    await writeFile(join(project, '.claude', 'agents', 'opt.md'), role('opt', 'project'));
    const { roles } = await loadRoles(project, [{ name: 'opt', description: 'options', prompt: 'P' }], {
      userDir: user,
    });
    expect(roles.get('shared')!.description).toBe('project');
    expect(roles.get('mine')!.description).toBe('user');
    expect(roles.get('opt')!.description).toBe('options');
    const none = await loadRoles(project, [], { projectFiles: false, userDir: user });
    expect([...none.roles.keys()]).toEqual(['general-purpose']);
  });

  test('a role file linked to another file of the project loads; a link out of the project is refused', async () => {
    await using dir = await tempDir();
    const project = join(dir.path, 'repo');
    await mkdir(join(project, '.claude', 'agents'), { recursive: true });
    await mkdir(join(project, 'roles'));
    await writeFile(join(project, 'roles', 'linked.md'), '---\ndescription: linked\n---\nP\n');
    await writeFile(join(dir.path, 'outside.md'), '---\ndescription: outside\n---\nP\n');
    await symlink(join(project, 'roles', 'linked.md'), join(project, '.claude', 'agents', 'linked.md'));
    await symlink(join(dir.path, 'outside.md'), join(project, '.claude', 'agents', 'outside.md'));
    const { roles, problems } = await loadRoles(project, [], { userDir: null });
    expect(roles.get('linked')?.description).toBe('linked');
    expect(roles.has('outside')).toBe(false);
    expect(problems).toEqual([expect.stringContaining('outside.md')]);
  });

  test('Claude Code tool names map to teamd tools, with their rules', () => {
    expect(teamdToolNames('Read')).toEqual({ ok: true, tools: ['read'] });
    expect(teamdToolNames('Bash(git:*)')).toEqual({
      ok: true,
      tools: ['bash', 'bash_output', 'bash_kill'],
      rule: 'Bash(git:*)',
    });
    expect(teamdToolNames('mcp__github__create_issue')).toEqual({
      ok: true,
      tools: ['mcp__github__create_issue'],
    });
    expect(teamdToolNames('grep')).toEqual({ ok: true, tools: ['grep'] });
    expect(teamdToolNames('bash(npm test:*)')).toMatchObject({ rule: 'Bash(npm test:*)' });
    expect(teamdToolNames('NotebookEdit')).toEqual({ ok: false, name: 'NotebookEdit' });
  });

  test('a teammate on agent:<name> gets its tools, model, permission mode and rules; plan turns on plan mode', async () => {
    await using dir = await tempDir();
    await projectWithFixtures(dir.path);
    const { roles } = await loadRoles(dir.path, [], { userDir: null });
    const team = { defaultMode: 'acceptEdits' as const, allow: ['Read'], deny: ['Bash(rm:*)'], ask: [] };
    const t = TeammateConfigSchema.parse({ name: 'w1', role: 'agent:api-designer' });
    const api = applyAgentRole(t, roles.get('api-designer')!, team);
    expect(api.tools).toEqual(['read', 'write', 'edit', 'bash', 'bash_output', 'bash_kill']);
    expect(api.permissions).toEqual({ ...team, allow: ['Read', 'Bash(curl:*)'] });
    const incident = applyAgentRole(t, roles.get('incident-helper')!, team);
    expect(incident).toMatchObject({ planMode: true, permissions: { defaultMode: 'plan' } });
    const own = applyAgentRole({ ...t, tools: ['read'], model: 'm' }, roles.get('frontend-reviewer')!, team);
    expect(own).toMatchObject({ tools: ['read'], model: 'm' });
    expect(applyAgentRole(t, roles.get('frontend-reviewer')!, team).model).toBe('claude-opus-5-5');
  });
});

describe('a subagent role’s permissionMode', () => {
  test('sets the mode of its policy and adds the rules of its tool lists; the parent’s rules stay', async () => {
    const { rolePolicy } = await import('../../../src/agent/subagents/run-subagent.js');
    const parent = {
      permissionPolicy: { defaultMode: 'default', allow: ['Read'], deny: [], ask: ['Bash'] },
    } as never;
    const role = {
      name: 'r',
      description: 'd',
      prompt: 'p',
      source: 'x',
      permissionMode: 'plan' as const,
      allowRules: ['Bash(git:*)'],
      denyRules: ['Bash(rm:*)'],
    };
    expect(rolePolicy(parent, role)).toEqual({
      defaultMode: 'plan',
      allow: ['Read', 'Bash(git:*)'],
      deny: ['Bash(rm:*)'],
      ask: ['Bash'],
    });
    expect(
      rolePolicy(parent, { ...role, permissionMode: undefined, allowRules: undefined, denyRules: undefined }),
    ).toBe((parent as { permissionPolicy: unknown }).permissionPolicy);
  });
});
