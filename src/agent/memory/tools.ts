/**
 * The memory tools. `memory_write` changes files (the permission gate asks
 * unless a rule allows `MemoryWrite`); `memory_search` only reads.
 */
import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext } from '../../tools/types.js';
import { keywordSearch, modelSearch } from './search.js';
import { listMemories, writeMemory } from './store.js';
import type { MemoryEntry, MemoryOptions } from './types.js';

const MemoryWriteInput = z.strictObject({
  name: z
    .string()
    .min(1)
    .describe('A short id for the memory, e.g. "test-command" (letters, digits, . _ -).'),
  description: z
    .string()
    .min(1)
    .max(300)
    .describe('One line saying what the memory is about (it goes into the index).'),
  type: z
    .string()
    .default('project')
    .describe(
      'user (about the people you work for), project (about this code base), feedback (how to work), reference, …',
    ),
  content: z
    .string()
    .min(1)
    .describe(
      'The memory itself, in Markdown. Writing an existing name replaces it (the old version is kept).',
    ),
});

const MemorySearchInput = z.strictObject({
  query: z.string().min(1).describe('What you are looking for (keywords).'),
  limit: z.number().int().min(1).max(20).default(5).describe('At most this many memories (default 5).'),
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

export function memoryWriteTool(dir: string): AnyTool {
  return defineTool({
    name: 'memory_write',
    description:
      'Save something worth remembering in later sessions (a fact about the project, a preference, a lesson) as a memory file in .memory/. Keep one topic per memory; update a memory by writing its name again.',
    inputSchema: MemoryWriteInput,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    run: async (input) => {
      const written = await writeMemory(dir, { ...input, body: input.content });
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
      'Search the memories of earlier sessions (.memory/; their index is in your session context) by keywords over their names, descriptions and contents; returns the matching memories in full.',
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
