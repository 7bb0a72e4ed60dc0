/**
 * `bash_output`: what a background command (started with `bash`
 * `run_in_background`) wrote since the last read, and whether it still runs.
 */
import { z } from 'zod';
import { BASH_LIMITS } from './bash.js';
import { backgroundShells, describeStatus } from './bash-background.js';
import { createCappedOutput } from './output-cap.js';
import { defineTool, type ToolOutput } from './types.js';

const BashOutputInput = z.strictObject({
  bash_id: z.string().min(1).describe('e.g. bash-1'),
  filter: z
    .string()
    .optional()
    .describe('Regex: show only matching lines'),
});

function filtered(text: string, filter: string | undefined): { text: string } | { error: string } {
  if (filter === undefined) return { text };
  try {
    const pattern = new RegExp(filter);
    return {
      text: text
        .split('\n')
        .filter((line) => pattern.test(line))
        .join('\n'),
    };
  } catch (error) {
    return { error: `Error: filter is not a valid regular expression: ${(error as Error).message}` };
  }
}

const unknownId = (id: string, known: string[]): ToolOutput => ({
  content: `Error: no background command with id "${id}". Known ids: ${known.length > 0 ? known.join(', ') : '(none)'}.`,
  isError: true,
});

export const bashOutputTool = defineTool({
  name: 'bash_output',
  description: [
    'New output and status of a background bash command.',
  ].join('\n'),
  inputSchema: BashOutputInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async ({ bash_id, filter }, ctx) => {
    const registry = backgroundShells(ctx);
    const shell = registry.get(bash_id);
    if (shell === undefined) return unknownId(bash_id, registry.ids);
    const fresh = filtered(shell.log.readNew(), filter);
    if ('error' in fresh) return { content: fresh.error, isError: true };
    const capped = createCappedOutput(BASH_LIMITS.maxOutputChars);
    capped.append(fresh.text.trimEnd());
    const body = capped.text() === '' ? '(no new output)' : capped.text();
    const status = describeStatus(shell);
    return { content: `[${bash_id}: ${status}]\n${body}`, summary: `bash_output ${bash_id}: ${status}` };
  },
});
