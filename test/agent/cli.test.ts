import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/agent/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { runHeadless } from '../../src/agent/headless.js';
import { agentAction, headlessOptions, parseToolRules } from '../../src/cli/agent.js';
import { tempDir } from './support/workspace.js';

const ENTRY = fileURLToPath(new URL('./support/agent-cli.ts', import.meta.url));
// `--import tsx` resolves from the child's cwd (a temp folder): name the loader by its full path
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function teamdAgent(cwd: string, args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', TSX, ENTRY, 'agent', ...args],
      { cwd, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const SCRIPT: ScriptInput = {
  steps: [
    {
      content: [{ type: 'tool_use', name: 'write', input: { file_path: 'hello.txt', content: 'hi there' } }],
    },
    { afterTool: 'write', content: [{ type: 'text', text: 'Wrote hello.txt.' }] },
  ],
};

async function workspace(script: ScriptInput) {
  const dir = await tempDir();
  await writeFile(join(dir.path, 'script.json'), JSON.stringify(script));
  return dir;
}

describe('teamd agent -p', () => {
  test('--output-format text prints the final answer and exits 0', async () => {
    await using dir = await workspace(SCRIPT);
    const ran = await teamdAgent(dir.path, ['-p', 'Write hello.txt', '--model', 'scripted:script.json']);
    expect(ran).toMatchObject({ code: 0, stdout: 'Wrote hello.txt.\n' });
    expect(await readFile(join(dir.path, 'hello.txt'), 'utf8')).toBe('hi there');
  });

  test('--output-format json prints the result event', async () => {
    await using dir = await workspace(SCRIPT);
    const ran = await teamdAgent(dir.path, [
      '-p',
      'Write hello.txt',
      '--model',
      'scripted:script.json',
      '--output-format',
      'json',
    ]);
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as AgentEvent;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'Wrote hello.txt.',
      num_turns: 2,
      is_error: false,
    });
  });

  test('--output-format stream-json prints every event as one JSON line, ending with the result', async () => {
    await using dir = await workspace(SCRIPT);
    const ran = await teamdAgent(dir.path, [
      '-p',
      'Write hello.txt',
      '--model',
      'scripted:script.json',
      '--output-format',
      'stream-json',
    ]);
    expect(ran.code).toBe(0);
    const events = ran.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AgentEvent);
    expect(events[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      model: 'scripted:script.json',
      cwd: dir.path,
    });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['user', 'assistant', 'result']));
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
  });

  test('a run that does not succeed exits 1; asks are denied for want of an approver', async () => {
    await using dir = await workspace({
      steps: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch made-by-bash' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch again' } }] },
      ],
    });
    const ran = await teamdAgent(dir.path, [
      '-p',
      'Run it',
      '--model',
      'scripted:script.json',
      '--max-turns',
      '2',
      '--output-format',
      'json',
    ]);
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as Extract<AgentEvent, { type: 'result' }>;
    expect(result).toMatchObject({ subtype: 'error_max_turns', num_turns: 2 });
    // Claude Code's entries: its tool names, no message (teamd's transcript keeps the reason)
    expect(result.permission_denials.map((d) => d.tool_name)).toEqual(['Bash', 'Bash']);
    expect(result.permission_denials.map((d) => Object.keys(d).sort())[0]).toEqual(['tool_input', 'tool_name', 'tool_use_id']);
    expect(ran.stderr).toContain('error_max_turns');
  });

  // in-process from here on: spawning is slow on a shared machine, and the flag handling is the same code
  test('--allowed-tools rules let an ask through', async () => {
    await using dir = await workspace({
      steps: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch made-by-bash' } }] },
        { content: [{ type: 'text', text: 'Made.' }] },
      ],
    });
    const flags = {
      allowedTools: ['Bash(touch:*)'],
      model: 'scripted:script.json',
      outputFormat: 'text' as const,
      disallowedTools: [],
    };
    const printed: string[] = [];
    const out = {
      stdout: (t: string) => printed.push(t),
      stderr: (t: string) => printed.push(`stderr: ${t}`),
    };
    const result = await runHeadless('Run it', await headlessOptions(flags, dir.path), 'text', out).result;
    expect(result.subtype).toBe('success');
    expect(printed).toEqual(['Made.\n']);
    await expect(readFile(join(dir.path, 'made-by-bash'), 'utf8')).resolves.toBe('');
  });

  test('bad flags are refused naming the flag', async () => {
    await expect(agentAction(['x'], { outputFormat: 'yaml' })).rejects.toThrow(/--output-format/);
    await expect(agentAction(['x'], { maxTurns: '0' })).rejects.toThrow(/--max-turns/);
  });
});

test('tool rule lists split on commas and spaces outside parentheses', () => {
  expect(parseToolRules(['Bash(npm test:*) Edit,Read', 'Write(src/**)'])).toEqual([
    'Bash(npm test:*)',
    'Edit',
    'Read',
    'Write(src/**)',
  ]);
});
