/**
 * The texts of failed tool calls. Each says whose fault it is and what the
 * model can do about it: a wrong tool name or a wrong input is the model's to
 * fix; an error while running is the environment's.
 */
import { z } from 'zod';

export function unknownToolError(name: string, available: string[]): string {
  const list = available.length > 0 ? available.join(', ') : '(none)';
  return `Error: there is no tool named "${name}". Available tools: ${list}. Call one of these by its exact name.`;
}

function fieldsOf(error: z.ZodError): string {
  const paths = error.issues.map((issue) =>
    issue.path.length > 0 ? issue.path.join('.') : '(the whole input)',
  );
  return [...new Set(paths)].join(', ');
}

export function invalidInputError(tool: string, error: z.ZodError): string {
  return [
    `Error: invalid input for tool "${tool}" (field: ${fieldsOf(error)}). The tool did not run.`,
    z.prettifyError(error),
    "Fix the input to match the tool's schema and call it again.",
  ].join('\n');
}

export function thrownError(tool: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return [
    `Error: tool "${tool}" failed while running: ${message}`,
    'This is a problem in the environment, not in your input: check that the files or commands it needs exist, or try another way.',
  ].join('\n');
}

export const hookBlockedError = (tool: string, reason: string): string =>
  `Error: a PreToolUse hook blocked "${tool}": ${reason}. The tool did not run; change your approach.`;

export const hookInputError = (tool: string, error: z.ZodError): string =>
  `Error: a hook or approver rewrote the input of "${tool}" into an invalid one (field: ${fieldsOf(error)}). The tool did not run.`;

export const permissionDeniedError = (tool: string, message: string): string =>
  `Permission denied for "${tool}": ${message}. Do not retry the same call; try something else or explain what you need.`;

export const NO_APPROVER = 'this call needs approval, and there is no approver in this mode';
export const SIBLING_BASH_FAILED = 'cancelled: a sibling bash command failed';
