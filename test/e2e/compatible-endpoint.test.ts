/**
 * A whole team on two endpoints (issue 18, part 5): teammate `ann` runs a
 * local model name on a fake server in "compatible endpoint" mode (Bearer
 * token from the variable its config names, no cache accounting, no thinking),
 * teammate `bob` runs Claude on the team's endpoint (ANTHROPIC_BASE_URL /
 * ANTHROPIC_API_KEY). The lead holds both keys; each server sees only its
 * teammate and its own credential. A 529 on ann's endpoint shows as a
 * `system/api_retry` line in her transcript.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { transcriptsRoot } from '../../src/observe/transcript-view.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import { genericTaskScript, makeTeamRepo, teamPerTest } from './support/harness.js';
import { runTwoTasks } from './support/two-tasks.js';

const team = teamPerTest();
const endpoint = useFakeEndpoint();
let local: FakeAnthropicServer | undefined;
afterEach(async () => {
  await local?.close();
  local = undefined;
  delete process.env['TEAMD_TEST_LOCAL_TOKEN'];
});

/** Every transcript line of `agent`, parsed. */
function transcriptLines(repoDir: string, agent: string): Record<string, unknown>[] {
  const root = transcriptsRoot(repoDir);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.jsonl') && f.includes(agent),
  );
  return files.flatMap((f) =>
    readFileSync(join(root, f), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
}

it('one teammate on a local compatible endpoint, one on Claude: both finish their tasks', async () => {
  const claude = await endpoint.start({ script: genericTaskScript() });
  local = await startFakeAnthropicServer({
    script: genericTaskScript(),
    compatible: true,
    apiKey: 'local-secret',
  });
  process.env['TEAMD_TEST_LOCAL_TOKEN'] = 'local-secret';
  local.inject({ kind: 'overloaded', match: { agent: 'ann' } });
  const r = team.repo(
    makeTeamRepo({
      script: genericTaskScript(),
      config: {
        model: 'claude-sonnet-5',
        retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 },
        teammates: [
          {
            name: 'ann',
            model: 'qwen3-coder:30b',
            endpoint: { baseURL: local.url, tokenEnv: 'TEAMD_TEST_LOCAL_TOKEN' },
          },
          { name: 'bob' },
        ],
        worktrees: { mode: 'off' },
      },
    }),
  );
  await runTwoTasks(team, r, ['ann', 'bob']);

  const localCalls = local.requests.filter((q) => q.path.startsWith('/v1/messages'));
  expect(new Set(localCalls.map((q) => q.agent))).toEqual(new Set(['ann']));
  expect(new Set(localCalls.map((q) => q.body?.model))).toEqual(new Set(['qwen3-coder:30b']));
  expect(localCalls.every((q) => q.headers.authorization === 'Bearer local-secret')).toBe(true);
  expect(localCalls.map((q) => q.outcome)).toContain('fault:overloaded');
  const claudeCalls = claude.requests.filter((q) => q.path.startsWith('/v1/messages'));
  expect(new Set(claudeCalls.map((q) => q.agent))).toEqual(new Set(['bob']));
  expect(claudeCalls.every((q) => q.headers.authorization === 'Bearer test-key')).toBe(true);

  const ann = transcriptLines(r.dir, 'ann');
  expect(ann.filter((l) => l['subtype'] === 'api_retry')).toEqual([
    expect.objectContaining({ attempt: 1, max_retries: 3, error_status: 529 }),
  ]);
  const results = ann.filter((l) => l['type'] === 'result');
  expect(results.at(-1)).toMatchObject({ subtype: 'success', total_cost_usd: 0 });
  expect(tasksOnDisk(r.dir).get('t1')!.owner).toBe('ann');
});
