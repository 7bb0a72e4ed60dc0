import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadHookSettings } from '../../src/hooks/settings.js';

describe('loadHookSettings', () => {
  let repo = '';
  beforeEach(async () => {
    repo = await mkdtemp(path.join(os.tmpdir(), 'teamd-hooks-settings-'));
    await mkdir(path.join(repo, '.claude'));
  });
  afterEach(async () => rm(repo, { recursive: true, force: true }));

  const writeSettings = (name: string, value: unknown): Promise<void> =>
    writeFile(path.join(repo, '.claude', name), typeof value === 'string' ? value : JSON.stringify(value));

  it('is empty without settings files', async () => {
    expect(await loadHookSettings(repo)).toEqual({ settings: {}, problems: [], plugins: [], allowedHttpHookUrls: [] });
  });

  it('merges settings.json, settings.local.json and teamd config in that order', async () => {
    const hook = (command: string) => ({ hooks: [{ type: 'command', command }] });
    await writeSettings('settings.json', {
      permissions: { allow: [] },
      hooks: { PreToolUse: [{ matcher: 'Bash', ...hook('a') }], Stop: [hook('s')] },
    });
    await writeSettings('settings.local.json', {
      hooks: { PreToolUse: [{ matcher: 'Edit|Write', ...hook('b') }] },
    });
    const loaded = await loadHookSettings(repo, { PreToolUse: [{ ...hook('c'), timeout: 5 }] });
    expect(loaded.problems).toEqual([]);
    expect(loaded.settings.PreToolUse?.map((m) => [m.matcher, (m.hooks[0] as { command?: string } | undefined)?.command])).toEqual([
      ['Bash', 'a'],
      ['Edit|Write', 'b'],
      [undefined, 'c'],
    ]);
    expect(loaded.settings.Stop).toEqual([{ hooks: [{ type: 'command', command: 's' }] }]);
  });

  it('keeps Claude Code keys it does not know about, such as a timeout', async () => {
    await writeSettings('settings.json', {
      hooks: {
        PostToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'x', timeout: 30, extra: true }] }],
      },
    });
    expect((await loadHookSettings(repo)).settings.PostToolUse).toEqual([
      { matcher: '', hooks: [{ type: 'command', command: 'x', timeout: 30 }] },
    ]);
  });

  it('reports each bad entry with its file and field, and loads the rest', async () => {
    await writeSettings('settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'good' },
              { type: 'command' },
              { type: 'prompt', prompt: 'x' },
              { type: 'webhook', url: 'x' },
            ],
          },
          { matcher: '(unclosed', hooks: [{ type: 'command', command: 'x' }] },
          'not an object',
        ],
        WorktreeCreate: [],
        Bogus: [],
        Stop: 'nope',
      },
    });
    const loaded = await loadHookSettings(repo);
    expect(loaded.settings).toEqual({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'good' }, { type: 'prompt', prompt: 'x' }] },
      ],
    });
    expect(loaded.problems).toEqual([
      '.claude/settings.json: hooks.PreToolUse[0].hooks[1].command: Invalid input: expected string, received undefined',
      '.claude/settings.json: hooks.PreToolUse[0].hooks[3].type: "webhook" is not a hook type (command, http, prompt, agent, mcp_tool); ignored',
      '.claude/settings.json: hooks.PreToolUse[1].matcher: "(unclosed" is not a valid regular expression',
      '.claude/settings.json: hooks.PreToolUse[2]: Invalid input: expected object, received string',
      expect.stringContaining('.claude/settings.json: hooks.WorktreeCreate: a Claude Code event teamd does not fire'),
      expect.stringContaining('.claude/settings.json: hooks.Bogus: not a hook event'),
      '.claude/settings.json: hooks.Stop: must be an array of { matcher, hooks } entries',
    ]);
  });

  it('reports a file that is not JSON, and a bad extra object', async () => {
    await writeSettings('settings.local.json', '{ nope');
    const loaded = await loadHookSettings(repo, ['not', 'an', 'object']);
    expect(loaded.problems).toEqual([
      expect.stringMatching(/^\.claude\/settings\.local\.json: not valid JSON/),
      'teamd config hooks: must be an object of event names',
    ]);
  });

  it('disableAllHooks in either settings file turns every hook off', async () => {
    await mkdir(path.join(repo, '.claude'), { recursive: true });
    await writeFile(
      path.join(repo, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 's' }] }] } }),
    );
    await writeFile(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify({ disableAllHooks: true }));
    const loaded = await loadHookSettings(repo, { Stop: [{ hooks: [{ type: 'command', command: 't' }] }] });
    expect(loaded.settings).toEqual({});
  });
});

describe('allowedHttpHookUrls', () => {
  it('is read from both settings files, and a bad value is named', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'teamd-http-urls-'));
    try {
      await mkdir(path.join(dir, '.claude'), { recursive: true });
      await writeFile(path.join(dir, '.claude', 'settings.json'), JSON.stringify({ allowedHttpHookUrls: ['https://a.example/*'] }));
      await writeFile(path.join(dir, '.claude', 'settings.local.json'), JSON.stringify({ allowedHttpHookUrls: 'nope' }));
      const loaded = await loadHookSettings(dir);
      expect(loaded.allowedHttpHookUrls).toEqual(['https://a.example/*']);
      expect(loaded.problems).toEqual(['.claude/settings.local.json: allowedHttpHookUrls: must be an array of URL patterns; ignored']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
