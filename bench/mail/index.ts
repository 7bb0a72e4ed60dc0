/**
 * Mail → agent latency: a message sent with `MailboxStore.send` until it is
 * in the conversation of its recipient, i.e. in a model request of that
 * teammate (observed where the lead serves the shared scripted model):
 * (a) an idle teammate, which starts a conversation for it;
 * (b) a busy one, running a task whose tool (`sleep 0.02` in bash) keeps it
 *     busy: the message waits for the next tool boundary. For (b) the
 *     report also counts the boundaries that passed without the message.
 * Floor, interleaved: the same send seen by a bare `fs.watch` on the inbox folder.
 *
 *   npm run bench -- mail [--quick]
 */
import { benchArgs, sized } from '../support/args.js';
import { loadDaemon, type Daemon } from '../support/dist.js';
import { BenchReport } from '../support/report.js';
import {
  allIdle,
  firstUserText,
  latestUserText,
  makeBenchRepo,
  observeModel,
  startTeam,
  untilEvent,
  type RunningTeam,
} from '../support/team.js';
import { WatchFloor } from '../support/watch-floor.js';

const args = benchArgs();
const IDLE = sized(args, 300, 40);
const BUSY = sized(args, 100, 15);
const WARMUP = 5;
const FLOOR = 'floor: send → bare fs.watch event';

const script = {
  rules: [
    {
      name: 'stop busy',
      conversation: 'Task busy:',
      match: 'STOP-BUSY',
      times: 'always' as const,
      content: [{ type: 'text' as const, text: 'stopping' }],
    },
    {
      name: 'busy tool',
      conversation: 'Task busy:',
      times: 'always' as const,
      content: [{ type: 'tool_use' as const, name: 'bash', input: { command: 'sleep 0.02' } }],
    },
    {
      name: 'mail',
      conversation: 'You have new messages',
      times: 'always' as const,
      content: [{ type: 'text' as const, text: 'Noted.' }],
    },
  ],
};

/** Model requests as they reach the lead: when each token first appeared, and the busy conversation's calls. */
class Conversations {
  readonly entered = new Map<string, number>();
  readonly busyCalls: number[] = [];
  private readonly tokens = new Set<string>();

  watch(token: string): void {
    this.tokens.add(token);
  }

  onCall(text: string, busy: boolean, at: number): void {
    if (busy) this.busyCalls.push(at);
    for (const token of this.tokens) {
      if (!text.includes(token)) continue;
      this.entered.set(token, at);
      this.tokens.delete(token);
    }
  }
}

async function floorSample(daemon: Daemon, floor: WatchFloor, i: number): Promise<number> {
  const mailbox = new daemon.MailboxStore(floor.root);
  const seen = floor.expect('floor.json');
  const began = performance.now();
  await mailbox.send({ from: 'bench', to: 'floor', content: `floor ${i}` });
  const at = await seen;
  await mailbox.take('floor').then((b) =>
    mailbox.ack(
      'floor',
      b.map((m) => m.id),
    ),
  );
  return at - began;
}

async function sendAndWait(
  daemon: Daemon,
  team: RunningTeam,
  seen: Conversations,
  to: string,
  token: string,
  waitIdle: boolean,
): Promise<number> {
  const mailbox = new daemon.MailboxStore(team.lead.options.repoRoot);
  seen.watch(token);
  const began = performance.now();
  const sent = await mailbox.send({ from: 'bench', to, content: `${token}: a message for you` });
  if (!sent.ok) throw new Error(sent.error);
  const done = () => seen.entered.has(token) && (!waitIdle || team.lead.pool.stateOf(to)?.state === 'idle');
  await untilEvent(team, done, 30_000, `${token} to reach ${to}`);
  return seen.entered.get(token)! - began;
}

/** Deliveries slower than a second waited for a fallback, not for work: the wake never came. */
function noteLostWakes(report: BenchReport, phase: string, samples: number[]): void {
  const slow = samples.filter((ms) => ms > 1_000).length;
  report.figure(`${phase}: messages that waited > 1 s`, slow, 'count');
  if (slow)
    report.note(
      `${phase}: ${slow} of ${samples.length} messages waited > 1 s — the lead's watcher missed the inbox change, so the teammate found the mail only on a later wake or its idle re-check`,
    );
}

const daemon = await loadDaemon();
const repo = await makeBenchRepo(script, {
  teammates: [{ name: 'w1' }, { name: 'w2', maxTurns: 100_000 }],
  permissions: { defaultMode: 'bypassPermissions' },
});
const floor = await WatchFloor.open('.mailboxes');
const report = new BenchReport('mail', 'Mail → agent latency (ms), zero-latency scripted model', args.quick, {
  idle: IDLE,
  busy: BUSY,
  busyTool: 'bash sleep 0.02',
});
try {
  const team = await startTeam(daemon, repo);
  const seen = new Conversations();
  observeModel(team, repo.model, (request, at) =>
    seen.onCall(latestUserText(request), firstUserText(request).includes('Task busy:'), at),
  );
  try {
    await allIdle(team);
    const bare: number[] = [];
    const idle: number[] = [];
    for (let i = 0; i < IDLE + WARMUP; i++) {
      const b = await floorSample(daemon, floor, i);
      const l = await sendAndWait(
        daemon,
        team,
        seen,
        'w1',
        `PING-${i}-${Math.random().toString(36).slice(2, 8)}`,
        true,
      );
      if (i < WARMUP) continue;
      bare.push(b);
      idle.push(l);
    }
    report.row(FLOOR, bare);
    const idleRow = report.row('idle teammate: send → in its conversation', idle, 'ms', FLOOR);
    report.target(
      'mail → idle agent',
      'p99 ≤ 100 ms',
      `p99 ${idleRow.p99.toFixed(1)} ms`,
      idleRow.p99 <= 100,
    );
    noteLostWakes(report, 'idle', idle);

    const tasks = await daemon.TaskStore.open(repo.dir);
    await tasks.create({ id: 'busy', subject: 'stay busy', owner: 'w2' });
    await untilEvent(team, () => seen.busyCalls.length >= 3, 60_000, 'the busy task to start');
    const busy: number[] = [];
    const missed: number[] = [];
    for (let i = 0; i < BUSY; i++) {
      await new Promise((r) => setTimeout(r, Math.random() * 40)); // land at a random point of the tool's run
      const token = `BUSY-${i}-${Math.random().toString(36).slice(2, 8)}`;
      const callsBefore = seen.busyCalls.length;
      const ms = await sendAndWait(daemon, team, seen, 'w2', token, false);
      busy.push(ms);
      // calls that started after the send and before the one carrying the message
      missed.push(seen.busyCalls.slice(callsBefore).filter((at) => at < seen.entered.get(token)!).length);
    }
    report.row('busy teammate: send → in its conversation', busy, 'ms', FLOOR);
    report.row('busy: tool boundaries passed without it', missed, 'count');
    noteLostWakes(report, 'busy', busy);
    await sendAndWait(daemon, team, seen, 'w2', 'STOP-BUSY', false);
    await untilEvent(
      team,
      () => team.lead.pool.stateOf('w2')?.state === 'idle',
      60_000,
      'the busy task to end',
    );
  } finally {
    await team.stop();
  }
  await report.finish();
} finally {
  await floor.close();
  await repo.close();
}
