import type { Message, Task } from '../store/types.js';
import { controlOf } from './protocol.js';

export interface Identity {
  name: string;
  role: string;
  roster: string[];
  worktree: string | null;
  planMode: boolean;
}

/**
 * The teammate's system prompt: who it is, who the team is. Re-sent on every
 * call, so it survives compaction. How to fail, mail and ask for plan
 * approval is said once, in the `team` tool's description (a task completes
 * with the final answer; `team` says so when asked to do `done`).
 */
export function teammateSystemPrompt(id: Identity): string {
  const others = id.roster.filter((n) => n !== id.name && n !== 'user');
  return [
    id.role,
    '',
    `You are ${id.name}, in a team with ${others.join(', ')}.`,
    id.worktree ? `You work in your git worktree (${id.worktree}), committed and merged when you finish.` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export function taskPrompt(task: Task, depsDone: Task[]): string {
  const lines = [`Task ${task.id}: ${task.subject}`];
  if (task.description) lines.push('', task.description);
  if (depsDone.length) {
    lines.push('', 'Completed dependencies (their work is already in your tree):');
    for (const d of depsDone) lines.push(`- ${d.id}: ${d.subject}${d.result ? ` — ${d.result.summary}` : ''}`);
  }
  const notes = task.notes.slice(-5);
  if (notes.length) {
    lines.push('', 'Notes on this task:');
    for (const n of notes) lines.push(`- [${n.by}] ${n.text}`);
  }
  return lines.join('\n');
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * How to answer a shutdown request, said with the request (the one time a
 * teammate needs it) rather than in the team tool's description, which every
 * request carries.
 */
function answerHint(m: Message): string {
  const c = controlOf(m);
  if (c?.kind !== 'shutdown_request') return '';
  const id = JSON.stringify(c.requestId || m.id);
  return `\nAnswer it: team do "shutdown", id ${id}, approve true or false, text why.`;
}

/** Mail as it enters a conversation: the id lets a redelivered message be recognised. */
export function formatMail(messages: Message[]): string {
  return messages
    .map(
      (m) =>
        `<message id="${escapeAttr(m.id)}" from="${escapeAttr(m.from)}" type="${m.type}">\n${m.content}\n</message>${answerHint(m)}`,
    )
    .join('\n');
}

export const mailIdsIn = (text: string): string[] => [...text.matchAll(/<message id="([^"]+)"/g)].map((m) => m[1]!);
