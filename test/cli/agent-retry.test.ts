/**
 * `teamd agent -p --output-format stream-json` shows each model retry as a
 * `system/api_retry` line (Claude Code's shape), with the team's `retry`
 * settings; a refused key's result names the variable to fix. The real CLI
 * process against the fake Messages API on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import { teamd } from './run-teamd.js';

const endpoint = useFakeEndpoint();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workDir(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-agent-retry-'));
  dirs.push(dir);
  mkdirSync(join(dir, '.team'));
  writeFileSync(join(dir, '.team', 'config.json'), JSON.stringify(config));
  return dir;
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const SAY_HI = { rules: [{ times: 'always' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
const args = ['agent', '-p', 'say hi', '--model', 'claude-sonnet-5', '--output-format', 'stream-json'];

it('two overloads: two api_retry lines, then the answer', async () => {
  const server = await endpoint.start({ script: SAY_HI });
  server.inject([{ kind: 'overloaded' }, { kind: 'server', status: 503 }]);
  const dir = workDir({ retry: { maxRetries: 4, baseDelayMs: 1, maxDelayMs: 2 } });
  const run = await teamd(dir, ...args);
  expect(run.code, run.stderr).toBe(0);
  const events = lines(run.stdout);
  expect(events.filter((e) => e['subtype'] === 'api_retry')).toEqual([
    expect.objectContaining({ type: 'system', attempt: 1, max_retries: 4, error_status: 529 }),
    expect.objectContaining({ type: 'system', attempt: 2, max_retries: 4, error_status: 503 }),
  ]);
  expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'hi' });
});

it('a refused key: no retry, and the error names ANTHROPIC_API_KEY', async () => {
  const server = await endpoint.start({ script: SAY_HI });
  server.inject({ kind: 'auth' });
  const run = await teamd(workDir({}), ...args);
  expect(run.code).toBe(1);
  const events = lines(run.stdout);
  expect(events.some((e) => e['subtype'] === 'api_retry')).toBe(false);
  expect(String(events.at(-1)!['error'])).toMatch(
    /refused the credential from ANTHROPIC_API_KEY: set ANTHROPIC_API_KEY/,
  );
});

it('a stream cut after text (no tool started) is retried: one clean answer, the tool runs once, the void partial message is left open', async () => {
  const write = {
    content: [
      { type: 'text' as const, text: 'Writing.' },
      { type: 'tool_use' as const, name: 'bash', input: { command: 'echo hi >> out.txt' } },
    ],
  };
  // the cut attempt uses up its step: the first step twice
  const server = await endpoint.start({ script: { steps: [write, write, { content: [{ type: 'text', text: 'Done.' }] }] } });
  server.inject({ kind: 'cut_stream' });
  const dir = workDir({ retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
  const partial = ['--include-partial-messages', '--verbose', '--dangerously-skip-permissions'];
  const run = await teamd(dir, ...args, ...partial);
  expect(run.code, run.stderr).toBe(0);
  expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('hi\n');
  const events = lines(run.stdout);
  expect(events.filter((e) => e['subtype'] === 'api_retry')).toEqual([
    expect.objectContaining({ attempt: 1, max_retries: 2, error_status: null, error: expect.stringMatching(/^connection/) }),
  ]);
  type Block = { type: string; text?: string };
  const assistants = events.filter((e) => e['type'] === 'assistant') as { message: { id: string; content: Block[] } }[];
  const blocks = assistants.flatMap((a) => a.message.content);
  expect(blocks.filter((b) => b.type === 'text').map((b) => b.text).join('')).toBe('Writing.Done.');
  expect(blocks.filter((b) => b.type === 'tool_use')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Done.' });
  // the raw stream: the cut attempt's message started and never stopped; each answered message started and stopped once
  const raw = events.filter((e) => e['type'] === 'stream_event') as { api_message_id: string; event: { type: string } }[];
  const idsOf = (type: string) => raw.filter((e) => e.event.type === type).map((e) => e.api_message_id);
  const answered = [...new Set(assistants.map((a) => a.message.id))];
  expect(idsOf('message_stop')).toEqual(answered);
  const starts = idsOf('message_start');
  expect(starts).toHaveLength(3);
  expect(starts.filter((id) => !answered.includes(id))).toEqual([starts[0]]);
});
