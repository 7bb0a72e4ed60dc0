/** A real temporary folder as an agent's root, with a tool context on it. */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createToolContext } from '../../src/tools/context.js';
import type { AnyTool, ToolContext, ToolOutput } from '../../src/tools/types.js';

export interface TempRoot {
  root: string;
  ctx: ToolContext;
  progress: string[];
  /** Writes a file below root (folders created), returns its absolute path. */
  file(rel: string, content: string): Promise<string>;
  /** Validates `input` with the tool's schema (as the executor does), then runs it. */
  run(tool: AnyTool, input: unknown, ctx?: ToolContext): Promise<ToolOutput>;
  close(): Promise<void>;
}

export async function createTempRoot(prefix = 'teamd-tools-'): Promise<TempRoot> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const root = path.join(base, 'root');
  await mkdir(root);
  const progress: string[] = [];
  const ctx = createToolContext({ root, onProgress: (line) => progress.push(line) });
  return {
    root,
    ctx,
    progress,
    file: async (rel, content) => {
      const abs = path.join(root, rel);
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, content);
      return abs;
    },
    run: async (tool, input, runCtx = ctx) => tool.run(tool.inputSchema.parse(input), runCtx),
    close: () => rm(base, { recursive: true, force: true }),
  };
}
