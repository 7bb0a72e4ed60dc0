/**
 * Weeks of history written straight as files (no daemon, seconds not hours):
 * an event log of `events` lines (cron fires among them), `tasks` finished
 * tasks already in `.tasks/archive/` (where gc leaves them) plus `gcTasks`
 * still on the board for gc to move, and `messages` delivered messages in
 * the mailbox archives. Everything dated 30 days back.
 */
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HistorySize {
  events: number;
  cronFires: number;
  tasks: number;
  gcTasks: number;
  messages: number;
}

const DAY = 86_400_000;
const AGENTS = ['w1', 'w2', 'w3', 'w4'];

/** A task file as the store writes it (every field, the schema's order). */
function taskText(id: string, at: string, status: 'completed' | 'cancelled'): string {
  const task = {
    id,
    subject: `historic task ${id}`,
    description: '',
    status,
    owner: status === 'completed' ? 'w1' : null,
    blockedBy: [],
    priority: 0,
    attempts: status === 'completed' ? 1 : 0,
    lease: null,
    result: status === 'completed' ? { summary: `done ${id}` } : null,
    notes: [],
    metadata: {},
    createdAt: at,
    updatedAt: at,
  };
  return JSON.stringify(task, null, 2) + '\n';
}

function eventLine(i: number, size: HistorySize, at: number): string {
  const ts = new Date(at).toISOString();
  const agent = AGENTS[i % AGENTS.length]!;
  if (i % Math.max(1, Math.floor(size.events / Math.max(1, size.cronFires))) === 0)
    return JSON.stringify({ ts, type: 'cron_event', detail: { kind: 'fired', job: 'nightly', slot: ts } });
  const task = `h${i % 100_000}`;
  switch (i % 4) {
    case 0:
      return JSON.stringify({ ts, type: 'task_claimed', task, agent, attempt: 1 });
    case 1:
      return JSON.stringify({ ts, type: 'teammate_state', agent, state: 'working', task });
    case 2:
      return JSON.stringify({ ts, type: 'task_completed', task, agent, summary: `done ${task}` });
    default:
      return JSON.stringify({ ts, type: 'message_delivered', id: `m${i}`, to: agent });
  }
}

async function writeLines(file: string, count: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(file);
  const BATCH = 5000;
  for (let i = 0; i < count; i += BATCH) {
    const chunk: string[] = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) chunk.push(line(j));
    if (!out.write(chunk.join('\n') + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

export async function writeHistory(dir: string, size: HistorySize, now = Date.now()): Promise<void> {
  const start = now - 30 * DAY;
  const state = join(dir, '.team', 'state');
  mkdirSync(state, { recursive: true });
  const step = (29 * DAY) / Math.max(1, size.events);
  await writeLines(join(state, 'events.jsonl'), size.events, (i) => eventLine(i, size, start + i * step));
  const archive = join(dir, '.tasks', 'archive');
  mkdirSync(archive, { recursive: true });
  const at = new Date(start).toISOString();
  for (let i = 0; i < size.tasks; i++)
    writeFileSync(join(archive, `h${i}.json`), taskText(`h${i}`, at, i % 10 ? 'completed' : 'cancelled'));
  for (let i = 0; i < size.gcTasks; i++)
    writeFileSync(join(dir, '.tasks', `old${i}.json`), taskText(`old${i}`, at, 'completed'));
  const mail = join(dir, '.mailboxes', 'archive');
  mkdirSync(mail, { recursive: true });
  const perAgent = Math.ceil(size.messages / AGENTS.length);
  for (const agent of AGENTS)
    await writeLines(join(mail, `${agent}.jsonl`), perAgent, (i) =>
      JSON.stringify({
        id: `a-${agent}-${i}`,
        from: 'lead',
        to: agent,
        type: 'message',
        content: `historic message ${i}`,
        metadata: {},
        ts: new Date(start + (i * 29 * DAY) / perAgent).toISOString(),
      }),
    );
}
