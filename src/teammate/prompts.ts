import type { Message, Task } from '../store/types.js';

export interface Identity {
  name: string;
  role: string;
  roster: string[];
  worktree: string | null;
  planMode: boolean;
}

/** The teammate's system prompt: who it is, who the team is, how work flows. Re-sent on every call, so it survives compaction. */
export function teammateSystemPrompt(id: Identity): string {
  const others = id.roster.filter((n) => n !== id.name && n !== 'user');
  return [
    id.role,
    '',
    `You are "${id.name}", a teammate in a team of coding agents run by teamd. Others: ${others.join(', ')}.`,
    'You work on one task at a time. The task comes as the first message of a conversation.',
    id.worktree
      ? `Your working directory is your own git worktree (${id.worktree}); your changes are committed and merged for you when you finish.`
      : 'Your working directory is the shared repository.',
    'Coordinate only through the team tools: task_list, task_get, task_create, task_update, send_message.',
    'When the task is done, end with a short summary of what you changed: it becomes the task result.',
    'If you cannot do the task, call task_update with status "failed" and a reason, then stop.',
    'Messages from others appear as <message from="…"> blocks; answer with send_message only when needed.',
    id.planMode
      ? 'You are in plan mode: read and explore, then call request_plan_approval with your plan. Editing tools are refused until the plan is approved.'
      : '',
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

/** Mail as it enters a conversation: the id lets a redelivered message be recognised. */
export function formatMail(messages: Message[]): string {
  return messages
    .map(
      (m) =>
        `<message id="${escapeAttr(m.id)}" from="${escapeAttr(m.from)}" type="${m.type}">\n${m.content}\n</message>`,
    )
    .join('\n');
}

export const mailIdsIn = (text: string): string[] => [...text.matchAll(/<message id="([^"]+)"/g)].map((m) => m[1]!);
