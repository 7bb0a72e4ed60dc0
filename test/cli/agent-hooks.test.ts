/**
 * `teamd agent -p` runs the project's `.claude/settings.json` hooks with
 * Claude Code's payload: a real CLI process, a scripted model, a real Stop
 * script reading `transcript_path` and a recorder for every event.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { teamd } from './run-teamd.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('agent -p: SessionStart … SessionEnd with session_id, a readable transcript_path and permission_mode (not on the start and end, as Claude Code)', async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'teamd-agent-hooks-')));
  dirs.push(dir);
  mkdirSync(join(dir, '.claude', 'hooks'), { recursive: true });
  const rec = join(dir, '.claude', 'hooks', 'rec.sh');
  writeFileSync(
    rec,
    '#!/bin/sh\npayload=$(cat)\nprintf \'%s\\n\' "$payload" >> "$CLAUDE_PROJECT_DIR/log.jsonl"\n' +
      'case "$payload" in *\'"Stop"\'*) t=$(printf \'%s\' "$payload" | node -e \'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>console.log(JSON.parse(s).transcript_path))\'); ' +
      'grep -c \'"type":"assistant"\' "$t" > "$CLAUDE_PROJECT_DIR/assistant-lines.txt";; esac\n',
  );
  chmodSync(rec, 0o755);
  const hook = [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/rec.sh' }] }];
  const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'];
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, hook])) }));
  writeFileSync(
    join(dir, 'script.json'),
    JSON.stringify({
      steps: [
        { content: [{ type: 'tool_use', name: 'read', input: { file_path: '.claude/settings.json' } }] },
        { content: [{ type: 'text', text: 'read it' }] },
      ],
    }),
  );
  const run = await teamd(dir, 'agent', '-p', 'read the settings', '--model', 'scripted:script.json', '--permission-mode', 'bypassPermissions');
  expect(run.code, run.stderr).toBe(0);
  const log = readFileSync(join(dir, 'log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(log.map((p) => p.hook_event_name)).toEqual(events);
  const sessionId = log[0]!.session_id;
  expect(sessionId).toEqual(expect.stringMatching(/.+/));
  for (const p of log) {
    expect(p).toMatchObject({ session_id: sessionId, transcript_path: log[0]!.transcript_path, cwd: dir });
    // Claude Code sends permission_mode with every event but the session's start and end (test/interop)
    const session = p.hook_event_name === 'SessionStart' || p.hook_event_name === 'SessionEnd';
    expect(p.permission_mode).toBe(session ? undefined : 'bypassPermissions');
  }
  expect(log[2]).toMatchObject({ tool_name: 'Read', tool_input: { file_path: join(dir, '.claude/settings.json') } });
  expect(log[4]).toMatchObject({ last_assistant_message: 'read it', stop_hook_active: false });
  expect(readFileSync(join(dir, 'assistant-lines.txt'), 'utf8').trim()).toBe('2');
  rmSync(log[0]!.transcript_path as string, { force: true });
});
