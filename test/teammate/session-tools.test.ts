import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { createPermissionGate } from '../../src/agent/permissions/gate.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { policyFor, teammateTools } from '../../src/teammate/runtime-factory.js';
import type { TeammateHost } from '../../src/teammate/host.js';
import { toolDefinition } from '../../src/tools/index.js';

const config = TeamConfigSchema.parse({ teammates: [{ name: 'w1' }], permissions: { defaultMode: 'bypassPermissions' } });
const host = { deps: { data: { teammate: config.teammates[0]!, team: config } } } as unknown as Pick<TeammateHost, 'deps'>;

test('a mail session is offered the tools a task is, so its first request reads them from the cache', () => {
  const wire = (tools: ReturnType<typeof teammateTools>) => JSON.stringify(tools.filter((t) => !t.unlisted).map(toolDefinition));
  const tools = teammateTools(config.teammates[0]!);
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['edit', 'write', 'bash', 'team']));
  expect(wire(teammateTools({ ...config.teammates[0]!, tools: ['read'] }))).not.toContain('"edit"');
  expect(wire(tools)).toBe(wire(teammateTools(config.teammates[0]!)));
});

test('yet in a mail session edit and write are denied, even under bypassPermissions; a task may edit', async () => {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-session-tools-')));
  try {
    const byName = new Map(teammateTools(config.teammates[0]!).map((t) => [t.name, t]));
    const decide = (readOnly: boolean, name: string, input: unknown) =>
      createPermissionGate(policyFor(host, readOnly)).check(byName.get(name)!, input, { root, cwd: root }).behavior;
    const edit = { file_path: path.join(root, 'a.ts'), old_string: 'a', new_string: 'b' };
    const write = { file_path: path.join(root, 'b.ts'), content: 'x' };
    expect(decide(true, 'edit', edit)).toBe('deny');
    expect(decide(true, 'write', write)).toBe('deny');
    expect(decide(true, 'read', { file_path: path.join(root, 'a.ts') })).toBe('allow');
    expect(decide(false, 'edit', edit)).toBe('allow');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
