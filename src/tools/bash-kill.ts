/** `bash_kill`: stops a background command and every process it started. */
import { z } from 'zod';
import { backgroundShells, describeStatus } from './bash-background.js';
import { defineTool } from './types.js';

const BashKillInput = z.strictObject({
  bash_id: z.string().min(1).describe('e.g. bash-1'),
});

export const bashKillTool = defineTool({
  name: 'bash_kill',
  description:
    'Stop a background bash command (no <task_notification> follows).',
  inputSchema: BashKillInput,
  // It only stops the agent's own background processes: nothing in the repository changes.
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  run: async ({ bash_id }, ctx) => {
    const registry = backgroundShells(ctx);
    const before = registry.get(bash_id)?.status;
    const shell = await registry.kill(bash_id);
    if (shell === undefined) {
      const known = registry.ids.length > 0 ? registry.ids.join(', ') : '(none)';
      return {
        content: `Error: no background command with id "${bash_id}". Known ids: ${known}.`,
        isError: true,
      };
    }
    const content =
      before === 'running' ? `Killed ${bash_id}.` : `${bash_id} had already ended: ${describeStatus(shell)}.`;
    return { content, summary: `bash_kill ${bash_id}` };
  },
});
