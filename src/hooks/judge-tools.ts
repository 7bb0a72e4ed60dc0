/**
 * What an `agent` hook's judge may do before it answers: read a file and list
 * files of the worktree (never outside it), and answer through
 * `StructuredOutput`. Read-only on purpose: a hook judges, it does not act.
 */
import { readFile, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ToolDefinition, ToolResultBlock, ToolUseBlock } from '../model/types.js';

export const STRUCTURED_OUTPUT = 'StructuredOutput';
const MAX_READ = 64 * 1024;
const MAX_LIST = 500;

export const JUDGE_TOOLS: ToolDefinition[] = [
  {
    name: 'Read',
    description: 'Reads a text file of the working directory (at most 64 KiB).',
    input_schema: {
      type: 'object',
      properties: { file_path: { type: 'string' } },
      required: ['file_path'],
    },
  },
  {
    name: 'Glob',
    description: 'Lists the files of a folder of the working directory, recursively (at most 500).',
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: STRUCTURED_OUTPUT,
    description: 'Gives the verdict: ok true when the check passes, else ok false and the reason.',
    input_schema: {
      type: 'object',
      properties: { ok: { type: 'boolean' }, reason: { type: 'string' } },
      required: ['ok'],
    },
  },
];

/** A path inside `cwd` (symlinks resolved), or an error text. */
async function inside(cwd: string, given: unknown): Promise<string | { error: string }> {
  if (typeof given !== 'string' || given === '') return { error: 'a path is needed' };
  try {
    const root = await realpath(cwd);
    const real = await realpath(path.resolve(cwd, given));
    const rel = path.relative(root, real);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return { error: `${given} is outside the working directory` };
    return real;
  } catch {
    return { error: `${given} does not exist` };
  }
}

async function listFiles(dir: string, root: string, out: string[]): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (out.length >= MAX_LIST || entry.name === '.git' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await listFiles(full, root, out);
    else out.push(path.relative(root, full));
  }
}

async function toolText(use: ToolUseBlock, cwd: string): Promise<{ text: string; error?: boolean }> {
  const input = (typeof use.input === 'object' && use.input !== null ? use.input : {}) as Record<string, unknown>;
  if (use.name !== 'Read' && use.name !== 'Glob') return { text: `no tool ${use.name} here`, error: true };
  const where = await inside(cwd, use.name === 'Read' ? input.file_path : (input.path ?? '.'));
  if (typeof where !== 'string') return { text: where.error, error: true };
  if (use.name === 'Read') return { text: (await readFile(where, 'utf8')).slice(0, MAX_READ) };
  const files: string[] = [];
  await listFiles(where, where, files);
  return { text: files.join('\n') || '(no files)' };
}

export async function runJudgeTool(use: ToolUseBlock, cwd: string): Promise<ToolResultBlock> {
  const answer = await toolText(use, cwd).catch((e: unknown) => ({ text: (e as Error).message, error: true }));
  return {
    type: 'tool_result',
    tool_use_id: use.id,
    content: answer.text,
    ...(answer.error ? { is_error: true } : {}),
  };
}
