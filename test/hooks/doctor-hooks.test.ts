import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { checkHooks } from '../../src/cli/preflight/system.js';
import { TeamConfigSchema } from '../../src/config/schema.js';

it("teamd doctor checks a plugin's hook programs with CLAUDE_PLUGIN_ROOT resolved", async () => {
  const repo = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-doctor-hooks-')));
  try {
    const plugin = path.join(repo, '.claude', 'plugins', 'p');
    await mkdir(path.join(plugin, 'hooks'), { recursive: true });
    const hooks = (file: string) => ({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: `\${CLAUDE_PLUGIN_ROOT}/hooks/${file}` }] }] },
    });
    await writeFile(path.join(plugin, 'hooks', 'hooks.json'), JSON.stringify(hooks('stop.sh')));
    const config = TeamConfigSchema.parse({});
    expect(await checkHooks(repo, config)).toMatchObject({ detail: expect.stringContaining('cannot start: ${CLAUDE_PLUGIN_ROOT}/hooks/stop.sh') });
    await writeFile(path.join(plugin, 'hooks', 'stop.sh'), '#!/bin/sh\n');
    await chmod(path.join(plugin, 'hooks', 'stop.sh'), 0o755);
    expect(await checkHooks(repo, config)).toMatchObject({ detail: '1 command(s), all startable' });
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
});
