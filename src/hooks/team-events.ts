/**
 * The team events' fields (TaskCreated, TaskCompleted), shared by the lead's
 * and the teammates' agents.
 */
import type { HookRunner } from './types.js';

export interface TaskFields {
  id: string;
  subject: string;
  description?: string;
}

export const taskFields = (task: TaskFields) => ({
  task_id: task.id,
  task_subject: task.subject,
  task_description: task.description ?? '',
});

/** TaskCreated hooks before a task is written: exit 2 (or `continue: false`) refuses it, with the reason. */
export function taskCreatedHook(runner: HookRunner, base: () => Record<string, unknown>) {
  return async (input: { id?: string; subject: string; description?: string }): Promise<string | null> => {
    if (!runner.has('TaskCreated')) return null;
    const payload = { ...base(), ...taskFields({ ...input, id: input.id ?? '' }) };
    const outcome = await runner.run('TaskCreated', payload);
    if (outcome.blocked || !outcome.continue)
      return outcome.reason ?? outcome.stopReason ?? 'refused by a TaskCreated hook';
    return null;
  };
}
