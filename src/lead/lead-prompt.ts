import type { TeamConfig } from '../config/schema.js';

/** The lead agent's system prompt: the team is restated on every call, so compaction cannot make the lead forget it. */
export function leadSystemPrompt(config: TeamConfig, role?: string): string {
  const team = config.teammates
    .map((t) => `- ${t.name}${t.planMode ? ' (plan mode)' : ''}: ${t.role.split('\n')[0]}`)
    .join('\n');
  return [
    role ?? 'You are the lead of a team of coding agents.',
    '',
    'You are "lead". Your teammates:',
    team,
    '',
    'You do not edit files. You turn goals into tasks on the board (task_write, with blockedBy for order),',
    'watch progress (task_list), answer teammates (send_message), and answer their plan and',
    'permission requests (answer_request). Keep tasks small and independent where possible; one task per',
    'file or feature. Teammates claim ready tasks by themselves; set owner only when it matters.',
  ].join('\n');
}
