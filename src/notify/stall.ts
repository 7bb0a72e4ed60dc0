/**
 * Stalled teammates: no heartbeat, or working with no progress (no transcript
 * line, no team event), for `stallAfterMs`. `teamd top` shows them;
 * `reportStalled` tells the lead's mailbox, once per stall: a stall is known
 * by its agent and the moment it began, recorded in `.team/state/stalls.json`,
 * so a restarted daemon does not report it again.
 */
import { statSync } from 'node:fs';
import { readStateSync, stateOr } from '../store/state-file.js';
import { join } from 'node:path';
import { z } from 'zod';
import type { TeamConfig } from '../config/schema.js';
import { eventLogPath } from '../observe/event-log.js';
import { readLastEvents } from '../observe/event-reader.js';
import { sessionFiles } from '../observe/transcript-view.js';
import type { LoggedEvent } from '../observe/types.js';
import { writeFileAtomic } from '../store/atomic.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { readAgentStatuses } from '../teammate/status-file.js';
import type { AgentStatus } from '../teammate/types.js';

export interface Stall {
  agent: string;
  task: string | null;
  reason: 'no_heartbeat' | 'no_progress';
  /** When the silence began (the last heartbeat, or the last progress). */
  since: string;
  ageMs: number;
}

export const stallsPath = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'stalls.json');
const ReportedSchema = z.record(z.string(), z.string());

/** The stalled teammates among `statuses` (pure). `lastProgress` holds epoch ms per agent, when known. */
export function findStalls(
  statuses: readonly Pick<AgentStatus, 'name' | 'state' | 'task' | 'heartbeat'>[],
  lastProgress: Readonly<Record<string, number>>,
  stallAfterMs: number,
  now: number,
): Stall[] {
  const stalls: Stall[] = [];
  for (const s of statuses) {
    if (s.state === 'stopped' || s.state === 'dead') continue;
    const beat = Date.parse(s.heartbeat);
    const progress = lastProgress[s.name];
    if (now - beat > stallAfterMs)
      stalls.push({
        agent: s.name,
        task: s.task,
        reason: 'no_heartbeat',
        since: s.heartbeat,
        ageMs: now - beat,
      });
    else if (s.state === 'working' && progress !== undefined && now - progress > stallAfterMs) {
      stalls.push({
        agent: s.name,
        task: s.task,
        reason: 'no_progress',
        since: new Date(progress).toISOString(),
        ageMs: now - progress,
      });
    }
  }
  return stalls;
}

/** Per agent, the last time it visibly did something: its newest transcript write or its latest team event. */
export function lastProgressTimes(
  repoRoot: string,
  agents: readonly string[],
  events: readonly LoggedEvent[],
  /** The newest transcript write per agent when the caller knows it already (`teamd top`'s reader): no listing. */
  newestWrite?: (agent: string) => number | undefined,
): Record<string, number> {
  const times: Record<string, number> = {};
  const bump = (agent: string, t: number): void => {
    if (Number.isFinite(t) && t > (times[agent] ?? 0)) times[agent] = t;
  };
  for (const agent of agents) {
    if (newestWrite) {
      bump(agent, newestWrite(agent) ?? NaN);
      continue;
    }
    const newest = sessionFiles(repoRoot, agent).at(-1);
    if (newest) bump(agent, statSync(newest, { throwIfNoEntry: false })?.mtimeMs ?? NaN);
  }
  for (const e of events)
    if ('agent' in e && typeof e.agent === 'string' && agents.includes(e.agent))
      bump(e.agent, Date.parse(e.ts));
  return times;
}

const duration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
};

/** What the lead reads about a stall. */
export function stallMessage(s: Stall): string {
  const what = s.reason === 'no_heartbeat' ? 'no heartbeat' : 'no progress';
  return `${s.agent} looks stalled: ${what} for ${duration(s.ageMs)}${s.task ? ` (task ${s.task})` : ''}. See \`teamd logs ${s.agent}\`; its task can be released if it does not recover.`;
}

function readReported(repoRoot: string): Record<string, string> {
  const file = stallsPath(repoRoot);
  return stateOr(readStateSync(file, ReportedSchema), {});
}

export interface StallReport {
  /** Stalls told to the lead by this call. */
  reported: Stall[];
  /** Every stall seen now (reported before or now). */
  stalled: Stall[];
  /** Messages that could not be sent. */
  errors: string[];
}

/**
 * Sends a message to the lead's mailbox for each stall not reported before.
 * Call it periodically from the lead (every `stallAfterMs / 4` is plenty).
 */
export async function reportStalled(
  repoRoot: string,
  config: Pick<TeamConfig, 'stallAfterMs'>,
  options: {
    now?: number;
    mailbox?: Pick<MailboxStore, 'send'>;
    /**
     * The last progress per agent as the caller saw it (the lead sees every
     * event and serves every model call: see lead/progress.ts). Without it,
     * the files say: the newest transcript's time and the last 10,000 events.
     */
    progress?: Readonly<Record<string, number>>;
  } = {},
): Promise<StallReport> {
  const now = options.now ?? Date.now();
  const statuses = readAgentStatuses(repoRoot);
  const progress =
    options.progress ??
    lastProgressTimes(
      repoRoot,
      statuses.map((s) => s.name),
      readLastEvents(eventLogPath(repoRoot), 10_000).events,
    );
  const stalled = findStalls(statuses, progress, config.stallAfterMs, now);
  const before = readReported(repoRoot);
  const mailbox = options.mailbox ?? new MailboxStore(repoRoot);
  const reported: Stall[] = [];
  const errors: string[] = [];
  const after: Record<string, string> = {};
  for (const s of stalled) {
    after[s.agent] = before[s.agent] ?? '';
    if (before[s.agent] === s.since) continue;
    const sent = await mailbox.send({
      from: 'teamd',
      to: 'lead',
      type: 'message',
      content: stallMessage(s),
      metadata: { kind: 'stalled', ...s },
    });
    if (sent.ok) {
      reported.push(s);
      after[s.agent] = s.since;
    } else errors.push(`stall of ${s.agent}: ${sent.error}`);
  }
  const kept = Object.fromEntries(Object.entries(after).filter(([, since]) => since));
  if (JSON.stringify(kept) !== JSON.stringify(before))
    await writeFileAtomic(stallsPath(repoRoot), JSON.stringify(kept, null, 2) + '\n');
  return { reported, stalled, errors };
}
