import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/agent/types.js';
import { OptionsError } from '../../src/config/options.js';
import { Team, TeamError, type TeamStreamEvent } from '../../src/team-api/index.js';
import { genericTaskScript, makeTeamRepo, type TeamRepo } from '../e2e/support/harness.js';

let repo: TeamRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

/** A repository with no configured teammate: the test creates them. */
function teamRepo(): TeamRepo {
  repo = makeTeamRepo({ script: genericTaskScript(), config: { teammates: [], worktrees: { mode: 'off' } } });
  return repo;
}

const open = (r: TeamRepo) => Team.open(r.dir, { idleRecheckMs: 1_000 });

/** Reads `run` until `stop` holds for an event; returns the events read. */
async function readUntil(run: AsyncGenerator<AgentEvent>, stop: (e: AgentEvent) => boolean): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for (;;) {
    const next = await run.next();
    if (next.done) return seen;
    seen.push(next.value);
    if (stop(next.value)) return seen;
  }
}

const isResult = (e: AgentEvent) => e.type === 'result';

describe('Team', () => {
  test('a teammate runs its first task, answers mail, and its run ends when it approves a shutdown', async () => {
    const r = teamRepo();
    await using team = await open(r);
    const ann = team.createTeammate({ name: 'ann' });
    const run = ann.run('Write the first note');
    const first = await readUntil(run, isResult);
    expect(first[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(first.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: `wrote out/${ann.firstTask!.id}.txt` });
    expect(readFileSync(join(r.dir, 'out', `${ann.firstTask!.id}.txt`), 'utf8')).toBe(`done ${ann.firstTask!.id}\n`);

    const sent = await team.send('ann', 'How is it going?');
    expect(sent.ok).toBe(true);
    const mail = await readUntil(run, isResult);
    expect(mail.at(-1)).toMatchObject({ type: 'result', result: 'Noted.' });

    expect((await team.requestShutdown('ann', 'user', 'all done')).ok).toBe(true);
    const rest = await readUntil(run, () => false); // the generator ends by itself
    expect(rest.every((e) => e.type !== 'result')).toBe(true);
    // The files tell the same story: the task completed, the approval is in the user's inbox.
    expect(team.tasks.get(ann.firstTask!.id)?.status).toBe('completed');
    const inbox = await team.mailbox.peek('user');
    expect(inbox.find((m) => m.type === 'shutdown_response')?.metadata).toMatchObject({ approve: true });
  });

  test('a shutdown request in the text form of an ordinary message ends the run too', async () => {
    await using team = await open(teamRepo());
    const run = team.createTeammate({ name: 'bob' }).run();
    const started = team.events();
    await waitForEvent(started, (e) => e.type === 'teammate_state' && e.agent === 'bob' && e.state === 'idle');
    await team.send('bob', '<shutdown_request from="user" request_id="sd-text" reason="done" />');
    await readUntil(run, () => false);
    expect(team.teammates()).toEqual(['bob']);
    expect(await team.stop('bob')).toBe(false); // already stopped
  });

  test('events() streams team and runtime events and ends when the team closes; stop and stopAll end the runs', async () => {
    const team = await open(teamRepo());
    const all: TeamStreamEvent[] = [];
    const collected = (async () => {
      for await (const e of team.events()) all.push(e);
    })();
    const a = team.createTeammate({ name: 'ann' }).run('first note for ann');
    const b = team.createTeammate({ name: 'bob' }).run('first note for bob');
    await Promise.all([readUntil(a, isResult), readUntil(b, isResult)]);
    expect(await team.stop('ann')).toBe(true);
    await readUntil(a, () => false);
    await team.stopAll();
    await readUntil(b, () => false);
    await team.close();
    await collected;
    expect(all.at(-1)).toMatchObject({ type: 'daemon_stopped' });
    const agents = new Set(all.flatMap((e) => (e.type === 'agent_event' && e.event.type === 'result' ? [e.agent] : [])));
    expect(agents).toEqual(new Set(['ann', 'bob']));
    expect(all.some((e) => e.type === 'task_completed' && e.agent === 'bob')).toBe(true);
  });

  test('a teammate created later is a recipient for the ones already running', async () => {
    repo = makeTeamRepo({
      script: genericTaskScript([
        { name: 'relay', conversation: 'You have new messages', match: 'tell bob', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'team', input: { do: 'send', to: 'bob', text: 'hi bob' } }] },
        { name: 'relayed', conversation: 'You have new messages', afterTool: 'team', times: 'always', content: [{ type: 'text', text: 'Told bob.' }] },
        { name: 'greeted', conversation: 'You have new messages', match: 'hi bob', times: 'always', content: [{ type: 'text', text: 'Hi ann.' }] },
      ]),
      config: { teammates: [], worktrees: { mode: 'off' } },
    });
    await using team = await open(repo);
    const ann = team.createTeammate({ name: 'ann' }).run('first note for ann');
    await readUntil(ann, isResult);
    const bob = team.createTeammate({ name: 'bob' }).run();
    const bobEvents = team.events();
    await waitForEvent(bobEvents, (e) => e.type === 'teammate_state' && e.agent === 'bob' && e.state === 'idle');
    await team.send('ann', 'Please tell bob hello');
    const annMail = await readUntil(ann, isResult);
    expect(annMail.at(-1)).toMatchObject({ result: 'Told bob.' });
    expect((await readUntil(bob, isResult)).at(-1)).toMatchObject({ result: 'Hi ann.' });
  });

  test('bad options and configs are refused by name', async () => {
    await expect(Team.open(teamRepo().dir, { teammates: -1 })).rejects.toThrow('Team.open options: teammates: ');
    await expect(Team.open(repo!.dir, { config: { review: 'never' as 'auto' } })).rejects.toThrow(
      'Team.open options: config.review: expected one of "auto", "human", "agent", got "never"',
    );
    await using team = await open(repo!);
    expect(() => team.createTeammate({ name: 'ann', maxTurns: 0 })).toThrow(OptionsError);
    expect(() => team.createTeammate({ name: 'lead' })).toThrow('name: "lead" is a reserved name');
    expect(() => team.createTeammate({ name: '../x' })).toThrow(/createTeammate config: name: /);
    await expect(Team.open(repo!.dir)).rejects.toBeInstanceOf(TeamError); // one lead per repository
  });
});

async function waitForEvent(events: AsyncGenerator<TeamStreamEvent>, pred: (e: TeamStreamEvent) => boolean): Promise<void> {
  for await (const e of events) if (pred(e)) return;
}
