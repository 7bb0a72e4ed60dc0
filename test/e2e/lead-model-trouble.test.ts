/**
 * The lead's own agent calls the model too (goal planning in `teamd run`, its
 * mail): a refused key there pauses the team as a teammate's does. The real
 * SDK against the fake Messages API on 127.0.0.1; the real `teamd run`
 * process; a real lead with worker threads for the mail.
 */
import { expect, it } from 'vitest';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { readEvents } from '../../src/observe/event-log.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { spawnCli } from './support/cli.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest } from './support/harness.js';

const team = teamPerTest();
const endpoint = useFakeEndpoint();
let server: FakeAnthropicServer | undefined;

const LEAD_PLANS: ScriptInput = {
  rules: [
    {
      agent: 'lead',
      match: 'Goal: the goal',
      content: [{ type: 'tool_use', name: 'task_write', input: { id: 'a', subject: 'do a' } }],
    },
    { agent: 'lead', times: 'always', content: [{ type: 'text', text: 'Noted.' }] },
    ...(genericTaskScript().rules ?? []),
  ],
};

async function claudeTeam(config: Record<string, unknown> = {}) {
  server = await endpoint.start({ script: LEAD_PLANS });
  return team.repo(
    makeTeamRepo({
      script: LEAD_PLANS,
      config: {
        model: 'claude-sonnet-5',
        teammates: [{ name: 'ann' }],
        worktrees: { mode: 'off' },
        ...config,
      },
    }),
  );
}

const AUTH_REASON = /^model authentication failed: .+; fix it and run `teamd resume`$/;

it('`teamd run`: a refused key at planning pauses the team and the run ends, exit 1, nothing planned', async () => {
  const r = await claudeTeam();
  server!.inject({ kind: 'auth', match: { text: 'Goal:' } });
  const cli = spawnCli(['run', 'the goal', '--dir', r.dir]);
  expect(await cli.exited, cli.output()).toBe(1);
  expect(cli.output()).toMatch(/model authentication failed/);
  const paused = readEvents(r.dir).filter((e) => e.type === 'team_paused');
  expect(paused).toMatchObject([{ kind: 'auth' }]);
  expect(paused[0]!.type === 'team_paused' && paused[0]!.reason).toMatch(AUTH_REASON);
  expect(tasksOnDisk(r.dir).size).toBe(0);
}, 60_000);

it("the lead's mail: a refused key while it answers a message pauses the team", async () => {
  const r = await claudeTeam({ lead: { agent: true } });
  server!.inject({ kind: 'auth', match: { text: 'New messages for the lead' } });
  const { lead } = await startLead(r);
  team.lead(lead);
  await new MailboxStore(r.dir).send({ from: 'user', to: 'lead', content: 'what is the plan?' });
  const paused = await lead.waitFor((e) => e.type === 'team_paused', 30_000);
  expect(paused).toMatchObject({ kind: 'auth' });
  expect(paused.type === 'team_paused' && paused.reason).toMatch(AUTH_REASON);
  expect(lead.pause.current?.kind).toBe('auth');
}, 60_000);

it('`teamd run`: a plan with no tasks ends the run at once, exit 1, saying so', async () => {
  const r = await claudeTeam();
  const cli = spawnCli(['run', 'nothing to plan here', '--dir', r.dir]);
  expect(await cli.exited, cli.output()).toBe(1);
  expect(cli.output()).toMatch(/teamd: error: the lead planned no tasks for the goal; see `teamd logs lead`/);
}, 60_000);
