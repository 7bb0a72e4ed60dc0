/**
 * Mailbox contention: 16 processes send to one inbox while it is delivered
 * (take, then ack into the archive, as a recipient does) by this process.
 * Figures: messages per second, and the messages lost or duplicated (must be
 * 0), counted from the raw archive lines. Floor: the same sends from one
 * process with nobody else at the inbox.
 *
 *   npm run bench -- mailbox-contention [--quick]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchArgs, sized } from '../support/args.js';
import { loadDaemon, type Daemon } from '../support/dist.js';
import { BenchReport } from '../support/report.js';

const args = benchArgs();
const SENDERS = 16;
const PER_SENDER = sized(args, 200, 40);
const SENDER = fileURLToPath(new URL('sender.ts', import.meta.url));
const FLOOR = 'floor: send, one process alone';

interface Sent {
  ids: string[];
  ms: number[];
  errors: string[];
}

function startSender(
  root: string,
  i: number,
): { child: ChildProcess; ready: Promise<void>; result: Promise<Sent> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', SENDER, root, `s${i}`, 'sink', String(PER_SENDER)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  let readyFn!: () => void;
  const ready = new Promise<void>((r) => (readyFn = r));
  const result = new Promise<Sent>((resolve, reject) => {
    lines.on('line', (line) => (line === 'ready' ? readyFn() : resolve(JSON.parse(line) as Sent)));
    child.once('exit', (code) => reject(new Error(`sender ${i} exited with ${code} before reporting`)));
  });
  return { child, ready, result };
}

/** Takes and acknowledges until `stop()` says so and the inbox is empty. */
async function deliver(daemon: Daemon, root: string, stop: () => boolean): Promise<number> {
  const mailbox = new daemon.MailboxStore(root);
  let batches = 0;
  for (;;) {
    const batch = await mailbox.take('sink');
    if (batch.length) {
      batches++;
      const acked = await mailbox.ack(
        'sink',
        batch.map((m) => m.id),
      );
      if (!acked.ok) throw new Error(acked.error);
    } else if (stop() && (await mailbox.peek('sink')).length === 0) return batches;
    else await new Promise((r) => setTimeout(r, 1));
  }
}

async function floorSends(daemon: Daemon, count: number): Promise<number[]> {
  const root = await mkdtemp(join(tmpdir(), 'teamd-bench-floor-'));
  const mailbox = new daemon.MailboxStore(root);
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await mailbox.send({ from: 'alone', to: 'sink', content: `alone #${i}` });
    ms.push(performance.now() - t);
  }
  await rm(root, { recursive: true, force: true });
  return ms;
}

const daemon = await loadDaemon();
const report = new BenchReport(
  'mailbox-contention',
  `Mailbox contention: ${SENDERS} processes → one inbox while it is delivered`,
  args.quick,
  { senders: SENDERS, perSender: PER_SENDER },
);
const root = await mkdtemp(join(tmpdir(), 'teamd-bench-mail-'));
try {
  report.row(FLOOR, await floorSends(daemon, PER_SENDER * 2));
  const senders = Array.from({ length: SENDERS }, (_, i) => startSender(root, i));
  await Promise.all(senders.map((s) => s.ready));
  let sendersDone = false;
  const began = performance.now();
  const delivering = deliver(daemon, root, () => sendersDone);
  for (const s of senders) s.child.stdin!.end('go\n');
  const results = await Promise.all(senders.map((s) => s.result));
  const sentMs = performance.now() - began;
  sendersDone = true;
  const batches = await delivering;
  const deliveredMs = performance.now() - began;

  const sent = results.flatMap((r) => r.ids);
  const lines = (await readFile(join(root, '.mailboxes', 'archive', 'sink.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean);
  const archived = lines.map((l) => (JSON.parse(l) as { id: string }).id);
  const unique = new Set(archived);
  const contended = report.row(
    `send, ${SENDERS} processes contending`,
    results.flatMap((r) => r.ms),
    'ms',
    FLOOR,
  );
  report.target('send p99, 16 processes', '≤ 50 ms (issue 19)', `${contended.p99.toFixed(1)} ms`, contended.p99 <= 50);
  report.figure('messages sent per second (all senders)', (sent.length / sentMs) * 1000, 'msgs/s');
  report.figure(
    'messages delivered per second (until archived)',
    (unique.size / deliveredMs) * 1000,
    'msgs/s',
  );
  report.figure('delivery batches', batches, 'count');
  report.figure(
    'send errors',
    results.reduce((n, r) => n + r.errors.length, 0),
    'count',
  );
  const lost = sent.filter((id) => !unique.has(id)).length;
  const duplicated = archived.length - unique.size;
  report.figure('lost', lost, 'messages');
  report.figure('duplicated', duplicated, 'messages');
  report.target(
    'lost or duplicated',
    '= 0',
    `${lost} lost, ${duplicated} duplicated of ${sent.length}`,
    lost === 0 && duplicated === 0 && sent.length === SENDERS * PER_SENDER,
  );
  await report.finish();
} finally {
  await rm(root, { recursive: true, force: true });
}
