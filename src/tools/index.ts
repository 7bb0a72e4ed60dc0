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

/** The model-facing definition: name, description and the input's JSON Schema. */
export function toolDefinition(tool: AnyTool): ToolDefinition {
  if (tool.inputJsonSchema !== undefined) {
    return { name: tool.name, description: tool.description, input_schema: tool.inputJsonSchema };
  }
  const schema = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, input_schema: schema };
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
