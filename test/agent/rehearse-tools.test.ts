import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rehearseTools } from '../../src/agent/rehearse-tools.js';
import { bashTool } from '../../src/tools/bash.js';
import { builtinTools } from '../../src/tools/index.js';
import { defineTool, type AnyTool } from '../../src/tools/types.js';

/** A tool that counts its rehearsals and parses (and may throw from its rehearsal). */
function counting(name: string, throws = false): { tool: AnyTool; rehearsals: () => number; parses: () => number } {
  let rehearsals = 0;
  let parses = 0;
  const schema = z.object({ x: z.string() }).superRefine(() => void parses++);
  const tool = defineTool({
    name,
    description: name,
    inputSchema: schema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    run: async () => ({ content: '' }),
    rehearse: () => {
      rehearsals++;
      if (throws) throw new Error('boom');
    },
  });
  return { tool, rehearsals: () => rehearsals, parses: () => parses };
}

const turnsOfLoop = (n: number): Promise<void> =>
  n === 0 ? Promise.resolve() : new Promise((r) => setImmediate(r)).then(() => turnsOfLoop(n - 1));

describe('rehearseTools', () => {
  it('rehearses each tool once per list, one per turn of the loop, past one that throws', async () => {
    const a = counting('a', true);
    const b = counting('b');
    const tools = new Map([a.tool, b.tool].map((t) => [t.name, t]));
    rehearseTools(tools);
    rehearseTools(tools);
    expect(a.rehearsals()).toBe(0); // nothing runs in the caller's turn
    await turnsOfLoop(1);
    expect([a.rehearsals(), b.rehearsals()]).toEqual([1, 0]);
    await turnsOfLoop(3);
    expect([a.rehearsals(), b.rehearsals()]).toEqual([1, 1]);
    // `{}` is parsed only to build zod's parser: it fails the shape, so no refinement runs
    expect(a.parses()).toBe(0);
  });

  it('runs over the built-in tools without changing their answers', async () => {
    const tools = new Map(builtinTools().map((t) => [t.name, t]));
    rehearseTools(tools);
    await turnsOfLoop(tools.size + 1);
    expect(bashTool.isConcurrencySafe({ command: 'echo warm' })).toBe(true);
    expect(bashTool.isConcurrencySafe({ command: 'cd /' })).toBe(false);
  });
});
