import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolsWithCache } from '../../src/model/cache-control.js';
import { estimateToolTokens } from '../../src/model/usage.js';
import { builtinTools, toolDefinition } from '../../src/tools/index.js';
import { cronTools } from '../../src/tools/cron/index.js';
import { teamTools } from '../../src/teammate/tools/index.js';
import { defineTool } from '../../src/tools/types.js';

describe('builtinTools and toolDefinition', () => {
  it('lists every built-in tool once', () => {
    expect(builtinTools().map((t) => t.name)).toEqual([
      'read',
      'write',
      'edit',
      'bash',
      'bash_output',
      'bash_kill',
      'glob',
      'grep',
      'todo_write',
    ]);
  });

  it('gives the model a JSON Schema of the input, defaulted fields optional', () => {
    const edit = builtinTools().find((t) => t.name === 'edit');
    if (edit === undefined) throw new Error('no edit tool');
    const def = toolDefinition(edit);
    expect(def.name).toBe('edit');
    expect(def.input_schema).toMatchObject({
      type: 'object',
      required: ['file_path', 'old_string', 'new_string'],
      additionalProperties: false,
      properties: { replace_all: { type: 'boolean', default: false } },
    });
    expect(def.input_schema).not.toHaveProperty('$schema');
  });

  it('leaves out what tells the model nothing: safe-integer bounds, the regex of a format, minLength 1', () => {
    const tool = defineTool({
      name: 'lean',
      description: 'a tool with every kind of redundant schema text',
      inputSchema: z.strictObject({
        n: z.number().int().optional(),
        at: z.iso.datetime().optional(),
        s: z.string().min(1),
        two: z.string().min(2),
        list: z.array(z.strictObject({ k: z.number().int().min(0) })),
      }),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      run: async () => ({ content: '' }),
    });
    const schema = JSON.stringify(toolDefinition(tool).input_schema);
    expect(schema).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(schema).not.toContain('pattern');
    expect(schema).toContain('"format":"date-time"');
    expect(schema).toContain('"minLength":2');
    expect(schema).not.toContain('"minLength":1');
    expect(schema).toContain('"minimum":0');
    expect(tool.inputSchema.safeParse({ s: '', list: [] }).success).toBe(false);
  });

  it('sends no additionalProperties flag on the wire; the definition keeps it for the scripted check', () => {
    const defs = builtinTools().map(toolDefinition);
    expect(JSON.stringify(toolsWithCache(defs))).not.toContain('additionalProperties');
    expect(defs[0]!.input_schema).toHaveProperty('additionalProperties', false);
    expect(toolsWithCache(defs)[0]!.input_schema).toBe(toolsWithCache(defs)[0]!.input_schema);
  });

  it('a teammate\'s built-in, team and cron tools stay lean (issue 19: ≤ 2k tokens with memory and task)', () => {
    const defs = [...builtinTools(), ...teamTools('teammate'), ...cronTools].filter((t) => !t.unlisted).map(toolDefinition);
    expect(estimateToolTokens(toolsWithCache(defs))).toBeLessThanOrEqual(1_700);
  });

  it('produces a schema for every tool', () => {
    for (const tool of builtinTools()) {
      const def = toolDefinition(tool);
      expect(def.description.length).toBeGreaterThan(20);
      expect(def.input_schema.type).toBe('object');
    }
  });
});
