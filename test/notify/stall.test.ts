import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findStalls, reportStalled, stallsPath } from '../../src/notify/stall.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { buildTeam, type TeamFixture } from '../dashboard/support/team-fixture.js';

const NOW = Date.parse('2026-11-29T10:00:00.000Z');
const status = (name: string, state: 'idle' | 'working' | 'stopped', heartbeatAgoMs: number) => ({
  name,
  state,
  task: state === 'working' ? 't' : null,
  heartbeat: new Date(NOW - heartbeatAgoMs).toISOString(),
});

describe('findStalls', () => {
  it('no heartbeat for stallAfterMs, or working with no progress for it; stopped teammates never stall', () => {
    const stalls = findStalls(
      [
        status('quiet', 'working', 121_000),
        status('busy', 'working', 1000),
        status('fine', 'working', 1000),
        status('idle', 'idle', 1000),
        status('done', 'stopped', 999_000),
      ],
      { busy: NOW - 200_000, fine: NOW - 5000, idle: NOW - 999_000 },
      120_000,
      NOW,
    );
    expect(stalls).toEqual([
      {
        agent: 'quiet',
        task: 't',
        reason: 'no_heartbeat',
        since: '2026-11-29T09:57:59.000Z',
        ageMs: 121_000,
      },
      { agent: 'busy', task: 't', reason: 'no_progress', since: '2026-11-29T09:56:40.000Z', ageMs: 200_000 },
    ]);
  });
});

describe('reportStalled', () => {
  let team: TeamFixture;
  afterEach(() => team.close());

  const leadInbox = async () =>
    (await new MailboxStore(team.root).peek('lead')).filter((m) => m.metadata.kind === 'stalled');

  it("tells the lead's mailbox once per stall, again after a recovery and a new stall", async () => {
    team = buildTeam('stalled');
    const first = await reportStalled(team.root, team.config, { now: team.now });
    expect(first.reported.map((s) => [s.agent, s.reason])).toEqual([
      ['worker-1', 'no_progress'],
      ['worker-2', 'no_heartbeat'],
    ]);
    const messages = await leadInbox();
    expect(messages.map((m) => [m.from, m.type, m.content])).toEqual([
      [
        'teamd',
        'message',
        'worker-1 looks stalled: no progress for 4 min (task parser). See `teamd logs worker-1`; its task can be released if it does not recover.',
      ],
      [
        'teamd',
        'message',
        'worker-2 looks stalled: no heartbeat for 5 min (task docs). See `teamd logs worker-2`; its task can be released if it does not recover.',
      ],
    ]);

    const again = await reportStalled(team.root, team.config, { now: team.now + 60_000 });
    expect(again.reported).toEqual([]);
    expect(again.stalled).toHaveLength(2);
    expect(await leadInbox()).toHaveLength(2);

    const file = join(team.root, '.team', 'state', 'agents', 'worker-2.json');
    const beat = (ago: number) =>
      writeFileSync(
        file,
        JSON.stringify({
          ...JSON.parse(readFileSync(file, 'utf8')),
          heartbeat: new Date(team.now - ago).toISOString(),
        }),
      );
    // worker-2 recovers: a fresh heartbeat and visible progress (a team event of its own).
    beat(1000);
    appendFileSync(
      join(team.root, '.team', 'state', 'events.jsonl'),
      JSON.stringify({
        ts: new Date(team.now - 1000).toISOString(),
        type: 'teammate_state',
        agent: 'worker-2',
        state: 'working',
        task: 'docs',
      }) + '\n',
    );
    expect(
      (await reportStalled(team.root, team.config, { now: team.now })).stalled.map((s) => s.agent),
    ).toEqual(['worker-1']);
    expect(Object.keys(JSON.parse(readFileSync(stallsPath(team.root), 'utf8')))).toEqual(['worker-1']);
    beat(200_000);
    const relapse = await reportStalled(team.root, team.config, { now: team.now });
    expect(relapse.reported.map((s) => s.agent)).toEqual(['worker-2']);
    expect(await leadInbox()).toHaveLength(3);
  });

  it('a message that cannot be sent is an error, and is tried again next time', async () => {
    team = buildTeam('stalled');
    const noLead = new MailboxStore(team.root, { roster: ['worker-1', 'worker-2'] });
    const failed = await reportStalled(team.root, team.config, { now: team.now, mailbox: noLead });
    expect(failed.reported).toEqual([]);
    expect(failed.errors).toEqual([
      'stall of worker-1: unknown recipient "lead"; valid: worker-1, worker-2',
      'stall of worker-2: unknown recipient "lead"; valid: worker-1, worker-2',
    ]);
    expect((await reportStalled(team.root, team.config, { now: team.now })).reported).toHaveLength(2);
  });
});
