/**
 * `teamd agent -p --output-format stream-json` shows each model retry as a
 * `system/api_retry` line (Claude Code's shape), with the team's `retry`
 * settings; a refused key's result names the variable to fix. The real CLI
 * process against the fake Messages API on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
