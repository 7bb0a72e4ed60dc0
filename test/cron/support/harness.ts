/**
 * A cron scheduler on real files in a temp folder, with a manual clock and a
 * small team whose mailboxes are real JSON files. Deliveries deduplicate by
 * message id, as the real mailbox's recipients do.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/cron/clock.js';
import { cronMessageId } from '../../../src/cron/message.js';
import { CronScheduler } from '../../../src/cron/scheduler.js';
import type {
  CronEvent,
  CronEventType,
  CronSchedulerOptions,
  DeliveryResult,
} from '../../../src/cron/types.js';
import { writeFileAtomic } from '../../../src/store/atomic.js';
import type { CronJob } from '../../../src/store/types.js';
import { CronJobSchema } from '../../../src/store/types.js';
import { CronStore } from '../../../src/store/cron/index.js';

export interface Delivered {
  id: string;
  to: string;
  jobId: string;
  slot: string;
}

export async function tempRepo(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'teamd-cron-'));
}

/** Writes `.cron/<id>.json` as a person or the CLI would; defaults as the schema fills them. */
export async function writeJob(
  root: string,
  job: Partial<CronJob> & Pick<CronJob, 'id' | 'cron'>,
): Promise<CronJob> {
  const full = CronJobSchema.parse({
    prompt: `prompt of ${job.id}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...job,
  });
  await writeFileAtomic(join(root, '.cron', `${job.id}.json`), JSON.stringify(full, null, 2) + '\n');
  return full;
}

export async function readJob(root: string, id: string): Promise<CronJob> {
  return CronJobSchema.parse(JSON.parse(await readFile(join(root, '.cron', `${id}.json`), 'utf8')));
}

/** The messages in `.mailboxes/<agent>.json`. */
export async function inbox(root: string, agent: string): Promise<Delivered[]> {
  try {
    return JSON.parse(await readFile(join(root, '.mailboxes', `${agent}.json`), 'utf8')) as Delivered[];
  } catch {
    return [];
  }
}

/** Appends a cron message unless one with its id is already there. */
export async function deliverToInbox(root: string, to: string, job: CronJob, slot: Date): Promise<void> {
  const messages = await inbox(root, to);
  const id = cronMessageId(job.id, slot);
  if (messages.some((m) => m.id === id)) return;
  messages.push({ id, to, jobId: job.id, slot: slot.toISOString() });
  await mkdir(join(root, '.mailboxes'), { recursive: true });
  await writeFileAtomic(join(root, '.mailboxes', `${to}.json`), JSON.stringify(messages));
}

/** Teammates, which of them are idle, and a `deliver` that honours `any`. */
export class Team {
  readonly idle = new Set<string>();

  constructor(
    private readonly root: string,
    readonly members: string[],
  ) {
    for (const m of members) this.idle.add(m);
  }

  deliver = async (job: CronJob, slot: Date): Promise<DeliveryResult> => {
    const to = job.to === 'any' ? this.members.find((m) => this.idle.has(m)) : job.to;
    if (to === undefined) return 'deferred';
    await deliverToInbox(this.root, to, job, slot);
    return 'delivered';
  };
}

export interface Harness {
  root: string;
  clock: ManualClock;
  source: CronStore;
  team: Team;
  events: CronEvent[];
  scheduler: CronScheduler;
  /** Lets `ms` pass, letting the scheduler finish each timer's work. */
  advance(ms: number): Promise<void>;
  /** Events of one type. */
  of<T extends CronEventType>(type: T): Extract<CronEvent, { type: T }>[];
  /** A fresh scheduler on the same files and clock (a daemon restart). */
  restart(): Promise<CronScheduler>;
  close(): Promise<void>;
}

export async function harness(
  start: string,
  options: Partial<CronSchedulerOptions> = {},
  root?: string,
): Promise<Harness> {
  const dir = root ?? (await tempRepo());
  const clock = new ManualClock(new Date(start));
  const source = new CronStore(dir, { now: () => new Date(clock.now()) });
  const team = new Team(dir, ['alice', 'bob']);
  const events: CronEvent[] = [];
  const make = () =>
    new CronScheduler({
      source,
      clock,
      deliver: team.deliver,
      onEvent: (e) => events.push(e),
      validTargets: () => team.members,
      ...options,
    });
  const h: Harness = {
    root: dir,
    clock,
    source,
    team,
    events,
    scheduler: make(),
    advance: (ms) => clock.advance(ms, () => h.scheduler.idle()),
    of: <T extends CronEventType>(type: T) =>
      events.filter((e): e is Extract<CronEvent, { type: T }> => e.type === type),
    restart: async () => {
      await h.scheduler.stop();
      h.scheduler = make();
      await h.scheduler.start();
      return h.scheduler;
    },
    close: async () => {
      await h.scheduler.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return h;
}
