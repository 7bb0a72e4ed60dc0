/**
 * Real hook settings from public repositories (../shared/corpus/claude-code/
 * settings/, read in place, never copied into the project): each loads
 * unchanged — a `settings.json` as `.claude/settings.json` of a temp project,
 * a plugin's `hooks.json` as `hooks/hooks.json` of a temp plugin — and every
 * hook it names runs, with stand-in scripts of our own where the originals
 * would be (and a stand-in `uv` on PATH). Skips when the corpus is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHookRunner } from '../../src/hooks/runner.js';
import { loadHookSettings } from '../../src/hooks/settings.js';
import type { HookEventName } from '../../src/hooks/types.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CANDIDATES = [process.env.TEAMD_SHARED, path.join(repoRoot, '../shared'), path.join(repoRoot, '../../shared')];
const shared = CANDIDATES.find((d): d is string => d !== undefined && existsSync(path.join(d, 'corpus/claude-code/settings')));
const settingsDir = shared === undefined ? '' : path.join(shared, 'corpus/claude-code/settings');
const files = shared === undefined ? [] : readdirSync(settingsDir).filter((f) => f.endsWith('.json')).sort();

if (shared === undefined)
  console.log('skip: ../shared/corpus/claude-code/settings is absent (set TEAMD_SHARED to the shared folder)');

/** Script paths a command names: `.claude/hooks/x.py`, `$CLAUDE_PROJECT_DIR/…`, `${CLAUDE_PLUGIN_ROOT}/…`. */
function scriptsOf(command: string, project: string, plugin: string): string[] {
  const found = command.matchAll(/(\$\{?CLAUDE_(PROJECT_DIR|PLUGIN_ROOT)\}?\/)?([\w.-]+\/)*[\w.-]+\.(py|js|mjs|cjs|sh|ts)\b/g);
  return [...found].map((m) => {
    const rel = m[0].replace(/^\$\{?CLAUDE_(PROJECT_DIR|PLUGIN_ROOT)\}?\//, '');
    return path.join(m[2] === 'PLUGIN_ROOT' ? plugin : project, rel);
  });
}

const STAND_INS: Record<string, string> = {
  // one write per call, so parallel hooks' lines never interleave
  '.sh': '#!/bin/sh\npayload=$(cat)\nprintf \'ran %s %s\\n\' "$0 $*" "$payload" >> "$HOOK_LOG"\n',
  '.js': "const fs = require('fs'); let raw = ''; process.stdin.on('data', (c) => (raw += c)).on('end', () => fs.appendFileSync(process.env.HOOK_LOG, 'ran ' + __filename + ' ' + raw + '\\n'));\n",
  '.py': '# a stand-in: the stand-in uv records the call\n',
};

async function standIn(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const ext = path.extname(file);
  await writeFile(file, STAND_INS[ext === '.mjs' || ext === '.cjs' ? '.js' : ext] ?? STAND_INS['.sh']!);
  await chmod(file, 0o755);
}

/** A payload of the event's shape, and what its matcher is tested against. */
function sample(event: HookEventName): { payload: Record<string, unknown>; matchValue?: string } {
  const tool = { tool_name: 'bash', tool_input: { command: 'ls' }, tool_use_id: 't1' };
  const table: Partial<Record<HookEventName, { payload: Record<string, unknown>; matchValue?: string }>> = {
    PreToolUse: { payload: tool, matchValue: 'bash' },
    PermissionRequest: { payload: tool, matchValue: 'bash' },
    PostToolUse: { payload: { ...tool, tool_response: { stdout: '' } }, matchValue: 'bash' },
    PostToolUseFailure: { payload: { ...tool, error: 'x', is_interrupt: false }, matchValue: 'bash' },
    SessionStart: { payload: { source: 'startup' }, matchValue: 'startup' },
    SessionEnd: { payload: { reason: 'other' }, matchValue: 'other' },
    Notification: { payload: { message: 'm', notification_type: 'idle_prompt' }, matchValue: 'idle_prompt' },
    PreCompact: { payload: { trigger: 'auto', custom_instructions: '' }, matchValue: 'auto' },
    UserPromptSubmit: { payload: { prompt: 'hi' } },
    Stop: { payload: { stop_hook_active: false, last_assistant_message: 'done' } },
    SubagentStop: { payload: { stop_hook_active: false, agent_type: 'general-purpose' }, matchValue: 'general-purpose' },
    SubagentStart: { payload: { agent_id: 'a', agent_type: 'general-purpose' }, matchValue: 'general-purpose' },
  };
  return table[event] ?? { payload: {} };
}

describe.skipIf(shared === undefined)('the corpus of real hook settings', () => {
  it.each(files)('%s loads unchanged and every hook it names runs', async (name) => {
    const text = readFileSync(path.join(settingsDir, name), 'utf8');
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-corpus-')));
    try {
      const project = path.join(dir, 'project');
      const plugin = path.join(project, '.claude', 'plugins', 'from-corpus');
      const isPlugin = name.includes('hooks.json');
      const target = isPlugin ? path.join(plugin, 'hooks', 'hooks.json') : path.join(project, '.claude', 'settings.json');
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
      const loaded = await loadHookSettings(project);
      expect(loaded.problems).toEqual([]);
      const events = Object.keys(loaded.settings) as HookEventName[];
      expect(events.length).toBeGreaterThan(0);
      const commands = events.flatMap((e) => (loaded.settings[e] ?? []).flatMap((m) => m.hooks.flatMap((h) => (h.type === 'command' ? [h.command] : []))));
      for (const file of new Set(commands.flatMap((c) => scriptsOf(c, project, plugin)))) await standIn(file);
      const bin = path.join(dir, 'bin');
      await standIn(path.join(bin, 'uv'));
      const log = path.join(dir, 'hooks.log');
      const runner = createHookRunner(loaded.settings, {
        cwd: project,
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOOK_LOG: log },
      });
      for (const event of events) {
        const { payload, matchValue } = sample(event);
        const outcome = await runner.run(event, payload, matchValue === undefined ? {} : { matchValue });
        for (const r of outcome.results) expect(r, `${event}: ${r.command}: ${r.stderr}`).toMatchObject({ exitCode: 0 });
        expect(outcome.results.length).toBeGreaterThan(0);
      }
      const ran = (await readFile(log, 'utf8')).split('\n').filter((l) => l.startsWith('ran '));
      expect(ran.length).toBe(events.reduce((n, e) => n + new Set((loaded.settings[e] ?? []).flatMap((m) => m.hooks.flatMap((h) => (h.type === 'command' ? [h.command] : [])))).size, 0));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
