/**
 * A scripted answer may only call a tool the caller offered, with input of
 * the offered shape. Without this check a script calling `write_file` (no
 * such tool) plays on: the agent gets an is_error result, the next step
 * answers "done", and the task is marked completed having done nothing.
 * The shape check covers what JSON Schema says about structure (types,
 * required and unknown fields, enums, items); the tool still validates the rest.
 */
import type { ContentBlock, ToolDefinition } from '../types.js';

type Schema = Record<string, unknown>;

/** What is wrong with the answer's tool calls, as one message naming the entry; undefined when nothing is. */
export function toolCallProblem(
  content: readonly (ContentBlock | { type: 'thinking' | 'redacted_thinking' })[],
  tools: readonly ToolDefinition[],
  where: string,
): string | undefined {
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    const tool = tools.find((t) => t.name === block.name);
    if (!tool) {
      const offered = tools.length ? tools.map((t) => t.name).join(', ') : 'none';
      return `${where} calls the tool "${block.name}", which this agent does not have (its tools: ${offered})`;
    }
    const problem = shapeProblem(tool.input_schema, block.input, 'input');
    if (problem) return `${where} calls "${block.name}" with invalid input: ${problem}`;
  }
  return undefined;
}

/** The first way `value` does not fit `schema`, as `path: what`; undefined when it fits. */
export function shapeProblem(schema: Schema, value: unknown, path: string): string | undefined {
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches)
    return branches.some((b) => !shapeProblem(b, value, path))
      ? undefined
      : `${path}: fits none of the allowed shapes`;
  const types = schema.type === undefined ? undefined : [schema.type].flat().map(String);
  if (types && !types.some((t) => hasType(value, t)))
    return `${path}: must be ${types.join(' or ')}, got ${describe(value)}`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return `${path}: must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (Array.isArray(value) && isSchema(schema.items)) return itemsProblem(schema.items, value, path);
  if (isRecord(value)) return objectProblem(schema, value, path);
  return undefined;
}

function objectProblem(schema: Schema, value: Record<string, unknown>, path: string): string | undefined {
  const properties = (isSchema(schema.properties) ? schema.properties : {}) as Record<string, Schema>;
  for (const name of (schema.required as string[] | undefined) ?? [])
    if (!(name in value)) return `${path}.${name}: required, missing`;
  for (const [name, field] of Object.entries(value)) {
    const fieldSchema = properties[name];
    if (fieldSchema) {
      const problem = shapeProblem(fieldSchema, field, `${path}.${name}`);
      if (problem) return problem;
    } else if (schema.additionalProperties === false) {
      const known = Object.keys(properties);
      return `${path}.${name}: not a field of this tool (its fields: ${known.join(', ') || 'none'})`;
    }
  }
  return undefined;
}

function itemsProblem(items: Schema, value: unknown[], path: string): string | undefined {
  for (const [i, item] of value.entries()) {
    const problem = shapeProblem(items, item, `${path}.${i}`);
    if (problem) return problem;
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isRecord(value);
  return typeof value === type;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isSchema = (v: unknown): v is Schema => isRecord(v);
const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
