/** What the dashboard's keys do to the team: answer approvals, follow a transcript. */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { rosterOf } from '../config/load.js';
import type { TeamConfig } from '../config/schema.js';
import { EventLog } from '../observe/event-log.js';
import { parseTranscriptText, sessionFiles, TranscriptRenderer } from '../observe/transcript-view.js';
import { isCompressed, readSessionText } from '../observe/transcript-files.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { answerRequest } from '../teammate/requests.js';

export interface TranscriptTail {
  title: string;
  lines: string[];
}

export interface DashboardActions {
  /** Approves or rejects a pending request as `user`; returns the line to show. */
  answer(requestId: string, approve: boolean): Promise<string>;
  /** The last `maxLines` rendered lines of the agent's newest session. */
  transcript(agent: string, maxLines: number): Promise<TranscriptTail>;
}

/** Transcripts can be megabytes: the view reads only their end. */
const TAIL_BYTES = 256 * 1024;

export async function readTail(file: string): Promise<string> {
  if (isCompressed(file)) {
    const text = readSessionText(file);
    return text.length <= TAIL_BYTES ? text : text.slice(text.indexOf('\n', text.length - TAIL_BYTES) + 1);
  }
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    await handle.close();
  }
}

export function titleOf(agent: string, file: string, lines: Record<string, unknown>[]): string {
  const parent = lines.find((l) => typeof l.parent_id === 'string')?.parent_id as string | undefined;
  const what =
    parent === undefined ? '' : parent.startsWith('mail:') ? ' · answering mail' : ` · task ${parent}`;
  return `${agent} · session ${basename(file, '.jsonl').slice(0, 8)}${what}`;
}

export async function transcriptTail(
  repoRoot: string,
  config: TeamConfig,
  agent: string,
  maxLines: number,
  color: boolean,
): Promise<TranscriptTail> {
  const file = sessionFiles(repoRoot, agent).at(-1);
  if (!file) return { title: agent, lines: [`no transcript for ${agent} yet`] };
  const parsed = parseTranscriptText(await readTail(file).catch(() => ''));
  const renderer = new TranscriptRenderer({ color, prices: config.prices });
  const lines = parsed.flatMap((l) => renderer.render(l)).flatMap((l) => l.split('\n'));
  return { title: titleOf(agent, file, parsed), lines: lines.slice(-maxLines) };
}

/** Approves or rejects request `requestId` as `user` (the request file, the teammate's inbox, the event): what happened, as data. */
export async function answerApprovalOutcome(
  repoRoot: string,
  config: TeamConfig,
  requestId: string,
  approve: boolean,
  reason?: string,
): Promise<{ ok: true; message: string } | { ok: false; error: string }> {
  const mailbox = new MailboxStore(repoRoot, { roster: rosterOf(config) });
  const r = await answerRequest(repoRoot, mailbox, requestId, { approve, by: 'user', reason });
  if (!r.ok) return r;
  EventLog.forRepo(repoRoot).append({
    type: 'approval_answered',
    requestId,
    agent: r.request.agent,
    approved: approve,
    by: 'user',
  });
  return { ok: true, message: `${approve ? '✔ approved' : '✘ rejected'} ${requestId} (${r.request.agent})` };
}

export async function answerApproval(
  repoRoot: string,
  config: TeamConfig,
  requestId: string,
  approve: boolean,
): Promise<string> {
  const r = await answerApprovalOutcome(repoRoot, config, requestId, approve);
  return r.ok ? r.message : `✘ ${r.error}`;
}

export function teamActions(
  repoRoot: string,
  config: TeamConfig,
  options: { color: boolean },
): DashboardActions {
  return {
    answer: (id, approve) => answerApproval(repoRoot, config, id, approve),
    transcript: (agent, maxLines) => transcriptTail(repoRoot, config, agent, maxLines, options.color),
  };
}
