import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionGate } from '../../src/agent/permissions/gate.js';
import type { PermissionGate } from '../../src/agent/permissions/types.js';
import { rehearseTools } from '../../src/agent/rehearse-tools.js';
import type { ToolCallEnv } from '../../src/agent/tool-call-types.js';
import { bashTool } from '../../src/tools/bash.js';
import { builtinTools } from '../../src/tools/index.js';
import { defineTool } from '../../src/tools/types.js';

/** A tool that counts its rehearsals, parses, concurrency checks and runs (and may throw from its rehearsal). */
function counting(name: string, opts: { throws?: boolean; sample?: { x: string } } = {}) {
  const count = { rehearsals: 0, parses: 0, checks: 0, runs: 0 };
  const tool = defineTool({
    name,
    description: name,
    inputSchema: z.object({ x: z.string() }).superRefine(() => void count.parses++),
    isReadOnly: () => true,
    isConcurrencySafe: () => (count.checks++, true),
    run: async () => (count.runs++, { content: '' }),
    ...(opts.sample === undefined ? {} : { rehearsalInput: opts.sample }),
    rehearse: () => {
      count.rehearsals++;
      if (opts.throws) throw new Error('boom');
    },
  });
  return { tool, count };
}

/** A call env whose gate records what it was asked, and whose other parts throw if touched. */
function envWith(gate: PermissionGate): ToolCallEnv {
  const untouchable = (): never => {
    throw new Error('a rehearsal must not record or stop anything');
  };
  return {
    gate,
    hookBase: {},
    context: { root: '/', cwd: '/', fileState: {} as never, agentName: 'agent', session: new Map(), services: {} },
    recordDenial: untouchable,
    requestStop: untouchable,
  };
}

const turnsOfLoop = (n: number): Promise<void> =>
  n === 0 ? Promise.resolve() : new Promise((r) => setImmediate(r)).then(() => turnsOfLoop(n - 1));

describe('rehearseTools', () => {
  it('rehearses each tool once per list: one with a sample in the caller\'s step, the others one per turn of the loop, past one that throws', async () => {
    const a = counting('a', { throws: true });
    const b = counting('b', { sample: { x: 'warm' } });
    const c = counting('c');
    const asked: unknown[] = [];
    const env = envWith({ check: (tool, input) => (asked.push([tool.name, input]), { behavior: 'deny', message: 'no', reason: 'test' }) });
    const tools = new Map([a.tool, b.tool, c.tool].map((t) => [t.name, t]));
    rehearseTools(tools, env);
    rehearseTools(tools, env);
    // with a sample, the call's path at once: parse, concurrency check, the gate (whose denial is dropped)
    expect([b.count.rehearsals, b.count.parses, b.count.checks]).toEqual([1, 1, 1]);
    expect(asked).toEqual([['b', { x: 'warm' }]]);
    expect([a.count.rehearsals, c.count.rehearsals]).toEqual([0, 0]);
    await turnsOfLoop(1);
    expect([a.count.rehearsals, c.count.rehearsals]).toEqual([1, 0]);
    await turnsOfLoop(3);
    expect([a.count.rehearsals, b.count.rehearsals, c.count.rehearsals]).toEqual([1, 1, 1]);
    // without a sample `{}` is parsed only to build zod's parser: it fails the shape, so no refinement runs
    expect([a.count.parses, a.count.checks, c.count.parses]).toEqual([0, 0, 0]);
    expect([a.count.runs, b.count.runs, c.count.runs]).toEqual([0, 0, 0]);
  });

  it('a gate that throws stops nothing', async () => {
    const b = counting('b', { sample: { x: 'warm' } });
    const c = counting('c');
    const env = envWith({ check: () => { throw new Error('gate bug'); } });
    expect(() => rehearseTools(new Map([b.tool, c.tool].map((t) => [t.name, t])), env)).not.toThrow();
    expect(b.count.rehearsals).toBe(1); // its own rehearsal still ran
    await turnsOfLoop(2);
    expect(c.count.rehearsals).toBe(1);
  });

  it('runs over the built-in tools with a real gate without changing their answers', async () => {
    const tools = new Map(builtinTools().map((t) => [t.name, t]));
    for (const mode of ['bypassPermissions', 'default', 'plan'] as const) {
      const gate = createPermissionGate({ defaultMode: mode, allow: [], deny: ['Bash(echo:*)'], ask: [] });
      rehearseTools(new Map(tools), envWith(gate));
    }
    await turnsOfLoop(tools.size + 1);
    expect(bashTool.rehearsalInput).toEqual({ command: 'echo warm' });
    expect(bashTool.isConcurrencySafe({ command: 'echo warm' })).toBe(true);
    expect(bashTool.isConcurrencySafe({ command: 'cd /' })).toBe(false);
  });
});
