/**
 * The memory tools. `memory_write` changes files (the permission gate asks
 * unless a rule allows `MemoryWrite`); `memory_search` only reads.
 */
import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext } from '../../tools/types.js';
import { keywordSearch, modelSearch } from './search.js';
import { listMemories, writeMemory } from './store.js';
import type { MemoryEntry, MemoryOptions, MemoryWriter } from './types.js';

const MemoryWriteInput = z.strictObject({
  name: z
    .string()
    .min(1)
    .describe('e.g. "test-command"'),
  description: z
    .string()
    .min(1)
    .max(300)
    .describe('One line'),
  type: z
    .string()
    .default('project')
    .describe('user, project, feedback, reference'),
  content: z.string().min(1),
});

const MemorySearchInput = z.strictObject({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(20).default(5),
});

const BODY_CHARS = 4_000;

function render(entries: MemoryEntry[]): string {
  return entries
    .map((e) => {
      const body = e.body.length > BODY_CHARS ? `${e.body.slice(0, BODY_CHARS)}\n[… cut]` : e.body;
      return `## ${e.name} (${e.type})\n${e.description}\n\n${body}`;
    })
    .join('\n\n');
}

export function memoryWriteTool(dir: string, write: MemoryWriter = writeMemory): AnyTool {
  return defineTool({
    name: 'memory_write',
    description:
      'Save a fact or lesson for later sessions (.memory/), one topic per name.',
    inputSchema: MemoryWriteInput,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    run: async (input) => {
      const written = await write(dir, { ...input, body: input.content });
      if (!written.ok) return { content: `Error: ${written.error}`, isError: true };
      const { entry, snapshot } = written.value;
      const note = snapshot === null ? 'new memory' : `replaced the previous version (kept in ${snapshot})`;
      return {
        content: `Saved memory "${entry.name}" in ${entry.file}: ${note}.`,
        summary: `memory_write ${entry.name}`,
      };
    },
  });
}

export function memorySearchTool(dir: string, options: Pick<MemoryOptions, 'searchModel'> = {}): AnyTool {
  const find = async (query: string, limit: number, ctx: ToolContext): Promise<MemoryEntry[]> => {
    const { entries } = await listMemories(dir);
    const model = options.searchModel;
    const picked = model
      ? await modelSearch(entries, query, limit, { model, signal: ctx.signal, agent: ctx.agentName })
      : null;
    return picked ?? keywordSearch(entries, query, limit);
  };
  return defineTool({
    name: 'memory_search',
    description:
      'Find memories by keywords; returns them in full.',
    inputSchema: MemorySearchInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    run: async ({ query, limit }, ctx) => {
      const found = await find(query, limit, ctx);
      if (found.length === 0)
        return { content: `No memory matches "${query}".`, summary: 'memory_search: nothing' };
      return { content: render(found), summary: `memory_search: ${found.map((e) => e.name).join(', ')}` };
    },
  });
}
