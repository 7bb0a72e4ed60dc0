/**
 * Extended thinking and output length per teammate (issue 18, part 1): the
 * team sets a budgeted `enabled` thinking, `ann` her own `adaptive` with an
 * effort and a larger `maxTokens`, `bob` nothing (the team's values), and the
 * lead makes every call. What each teammate's requests carried, as the fake
 * Messages API recorded them.
 */
import { expect, it } from 'vitest';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import { genericTaskScript, makeTeamRepo, teamPerTest } from './support/harness.js';
import { runTwoTasks } from './support/two-tasks.js';

const team = teamPerTest();
const endpoint = useFakeEndpoint();

it("a teammate's own thinking, effort and maxTokens win over the team's, key by key", async () => {
  const server = await endpoint.start({ script: genericTaskScript() });
  const r = team.repo(
    makeTeamRepo({
      script: genericTaskScript(),
      config: {
        model: 'claude-sonnet-5',
        thinking: 'enabled',
        thinkingBudget: 2_048,
        maxTokens: 16_000,
        teammates: [
          { name: 'ann', thinking: 'adaptive', effort: 'high', maxTokens: 20_000 },
          { name: 'bob' },
        ],
        worktrees: { mode: 'off' },
      },
    }),
  );
  await runTwoTasks(team, r, ['ann', 'bob']);
  const sent = (agent: string) =>
    server.requests
      .filter((q) => q.agent === agent && q.path.startsWith('/v1/messages'))
      .map((q) => {
        const body = q.body as unknown as Record<string, unknown>;
        return {
          max_tokens: body['max_tokens'],
          thinking: body['thinking'],
          output_config: body['output_config'],
        };
      });
  const ann = sent('ann');
  const bob = sent('bob');
  expect(ann.length).toBeGreaterThan(0);
  expect(bob.length).toBeGreaterThan(0);
  for (const body of ann)
    expect(body).toEqual({
      max_tokens: 20_000,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
    });
  for (const body of bob)
    expect(body).toEqual({
      max_tokens: 16_000,
      thinking: { type: 'enabled', budget_tokens: 2_048 },
      output_config: undefined,
    });
});
