import { describe, expect, it } from 'vitest';
import { builtinTools, toolDefinition } from '../../src/tools/index.js';

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

  it('produces a schema for every tool', () => {
    for (const tool of builtinTools()) {
      const def = toolDefinition(tool);
      expect(def.description.length).toBeGreaterThan(20);
      expect(def.input_schema.type).toBe('object');
    }
  });
});
