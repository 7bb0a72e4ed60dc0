import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { TeammateConfigSchema } from '../../src/config/schema.js';
import { resolveTeamConfig } from '../../src/lead/team-config.js';
import { tempDir } from '../agent/support/workspace.js';

const AGENT = `---
name: tester
description: Runs the tests.
maxTurns: 5
skills: [testing-rules, gone]
colour: blue
hooks:
  Stop:
    - hooks:
        - type: command
          command: ./tests-must-pass.sh
  Bogus: []
---
You run tests.
`;

async function project(dir: string, teammates: unknown[]): Promise<void> {
  await mkdir(join(dir, '.claude', 'agents'), { recursive: true });
  await mkdir(join(dir, '.claude', 'skills', 'testing-rules'), { recursive: true });
  await mkdir(join(dir, '.team'), { recursive: true });
  await writeFile(join(dir, '.claude', 'agents', 'tester.md'), AGENT);
  await writeFile(join(dir, '.claude', 'skills', 'testing-rules', 'SKILL.md'), 'RULE: run npm test before you stop.');
  await writeFile(join(dir, '.team', 'config.json'), JSON.stringify({ teammates }));
}

describe('a teammate made from an agent file', () => {
  test('takes its maxTurns, hooks and skills, and its warnings are given for the start notice', async () => {
    await using dir = await tempDir();
    await project(dir.path, [
      { name: 'alice', role: 'agent:tester' },
      { name: 'bob', role: 'agent:tester', maxTurns: 30, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'own' }] }] } },
    ]);
    const resolved = await resolveTeamConfig(dir.path, {});
    if (!resolved.ok) throw new Error(resolved.error);
    const [alice, bob] = resolved.config.teammates;
    expect(alice!.maxTurns).toBe(5);
    expect(bob!.maxTurns).toBe(30);
    expect(alice!.role).toContain('You run tests.');
    expect(alice!.role).toContain('RULE: run npm test before you stop.');
    expect(alice!.hooks).toEqual({ Stop: [{ hooks: [{ type: 'command', command: './tests-must-pass.sh' }] }] });
    expect(bob!.hooks).toEqual({
      Stop: [
        { hooks: [{ type: 'command', command: 'own' }] },
        { hooks: [{ type: 'command', command: './tests-must-pass.sh' }] },
      ],
    });
    expect(TeammateConfigSchema.safeParse(alice).success).toBe(true);
    expect(resolved.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/tester\.md: colour: unknown key, ignored$/),
        expect.stringMatching(/tester\.md: hooks\.Bogus: not a hook event/),
        expect.stringMatching(/tester\.md: skills: no skill "gone"/),
      ]),
    );
    expect(resolved.warnings).toHaveLength(3); // once each, though two teammates use the file
  });
});

describe("a teammate's own hooks", () => {
  test("run beside the team's: the worker loads both, the teammate's after", async () => {
    const { teammateHooks } = await import('../../src/teammate/hooks.js');
    const { TeamConfigSchema } = await import('../../src/config/schema.js');
    await using dir = await tempDir();
    await mkdir(join(dir.path, '.claude'), { recursive: true });
    await writeFile(join(dir.path, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'team' }] }] } }));
    const teammate = TeammateConfigSchema.parse({ name: 'alice', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'own' }] }], Nope: [] } });
    const data = { repoRoot: dir.path, teammate, team: TeamConfigSchema.parse({}) } as Parameters<typeof teammateHooks>[0];
    const loaded = await teammateHooks(data);
    expect(loaded.settings.Stop?.map((m) => (m.hooks[0] as { command: string }).command)).toEqual(['team', 'own']);
    expect(loaded.problems).toEqual([expect.stringMatching(/^teammate alice: hooks\.Nope: not a hook event/)]);
  });
});
