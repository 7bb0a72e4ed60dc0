/**
 * The built-in tools, and how the model sees a tool.
 */
import { z } from 'zod';
import type { ToolDefinition } from '../model/types.js';
import { bashKillTool } from './bash-kill.js';
import { bashOutputTool } from './bash-output.js';
import { bashTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readTool } from './read.js';
import { todoWriteTool } from './todo-write.js';
import type { AnyTool } from './types.js';
import { writeTool } from './write.js';

/** Every built-in tool, in the order the model is shown them. A fresh array each call. */
export function builtinTools(): AnyTool[] {
  return [
    readTool,
    writeTool,
    editTool,
    bashTool,
    bashOutputTool,
    bashKillTool,
    globTool,
    grepTool,
    todoWriteTool,
  ];
}

/**
 * The model-facing definition: name, description and the input's JSON Schema.
 * One object per tool for the process (a wrapper that keeps the tool's schema,
 * name and description gets the same one), so a definition can be sent to the
 * lead once and named by reference after.
 */
export function toolDefinition(tool: AnyTool): ToolDefinition {
  const key = tool.inputJsonSchema ?? tool.inputSchema;
  const known = definitions.get(key);
  if (known?.name === tool.name && known.description === tool.description) return known;
  const input_schema = tool.inputJsonSchema ?? jsonSchemaOf(tool.inputSchema);
  const made = { name: tool.name, description: tool.description, input_schema };
  definitions.set(key, made);
  return made;
}

const definitions = new WeakMap<object, ToolDefinition>();

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Drops what zod writes that tells the model nothing, in every request: the
 * safe-integer bounds of `.int()`, the regex of a `format` (an ISO date's
 * is 100 tokens) and `minLength: 1`. The input is still checked by the zod schema.
 */
function leanJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(leanJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = leanJsonSchema(value);
  if (out.maximum === SAFE) delete out.maximum;
  if (out.minimum === -SAFE) delete out.minimum;
  if (typeof out.format === 'string') delete out.pattern;
  if (out.minLength === 1) delete out.minLength;
  return out;
}

/** Converting a schema costs far more than a model turn's bookkeeping; every session asks again, so keep it. */
const jsonSchemas = new WeakMap<object, Record<string, unknown>>();

function jsonSchemaOf(schema: AnyTool['inputSchema']): Record<string, unknown> {
  const known = jsonSchemas.get(schema);
  if (known) return known;
  const json = leanJsonSchema(z.toJSONSchema(schema, { io: 'input' })) as Record<string, unknown>;
  delete json.$schema;
  jsonSchemas.set(schema, json);
  return json;
}

export {
  bashKillTool,
  bashOutputTool,
  bashTool,
  editTool,
  globTool,
  grepTool,
  readTool,
  todoWriteTool,
  writeTool,
};
export { classifyCommand, type CommandClass, type CommandPlace } from './bash-classify.js';
export { claudeCodeToolName } from './claude-names.js';
export { BACKGROUND_LOG_DIR_KEY, backgroundShells, type BackgroundShell } from './bash-background.js';
export {
  closeSessionTasks,
  notifyTaskEnded,
  onSessionClose,
  setTaskNotifier,
  taskNotificationText,
  type TaskNotification,
  type TaskNotifier,
} from './session-tasks.js';
export { createToolContext, currentCwd, setCurrentCwd } from './context.js';
export { createFileStateTracker } from './file-state.js';
export { resolveInside } from './paths.js';
export type { AnyTool, FileStateTracker, Tool, ToolContext, ToolOutput } from './types.js';
