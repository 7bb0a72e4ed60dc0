import { z } from 'zod';
import { defineTool, type AnyTool } from '../../tools/types.js';
import { answerShutdown, askPlanApproval } from './protocol-tools.js';
import { ChangeSchema, changeTask } from './task-update.js';
import { CreateSchema, createTask } from './task-create.js';
import { showTask } from './task-list.js';

/**
 * The team tools' old names, folded into `task_list`, `task_write` and
 * `send_message`. Still callable — a resumed transcript, an agent file or a
 * script that names them works as before — but unlisted: their schemas are
 * never sent, so they cost no tokens.
 */
const old = (tool: Omit<AnyTool, 'unlisted' | 'isReadOnly' | 'isConcurrencySafe'>, readOnly: boolean): AnyTool => ({
  ...tool,
  unlisted: true,
  isReadOnly: () => readOnly,
  isConcurrencySafe: () => readOnly,
});

const taskGet = old(
  defineTool({
    name: 'task_get',
    description: 'One task in full (now task_list with id).',
    inputSchema: z.strictObject({ id: z.string() }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    run: async (input, ctx) => showTask(input.id, ctx),
  }),
  true,
);

const taskCreate = old(
  defineTool({
    name: 'task_create',
    description: 'Add a task to the team board (now task_write with a subject).',
    inputSchema: CreateSchema,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    run: async (input, ctx) => createTask(input, ctx),
  }),
  false,
);

const taskUpdate = old(
  defineTool({
    name: 'task_update',
    description: 'Change a task (now task_write with an id).',
    inputSchema: ChangeSchema,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    run: async (input, ctx) => changeTask(input, ctx),
  }),
  false,
);

const shutdownResponse = old(
  defineTool({
    name: 'shutdown_response',
    description: 'Answer a <shutdown_request> (now send_message type shutdown_response).',
    inputSchema: z.strictObject({ request_id: z.string(), approve: z.boolean(), reason: z.string().default('') }),
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    run: async (input, ctx) => answerShutdown(input.request_id, input.approve, input.reason, ctx),
  }),
  true,
);

const requestPlanApproval = old(
  defineTool({
    name: 'request_plan_approval',
    description: 'Send your plan to the lead and wait (now send_message type plan_approval_request).',
    inputSchema: z.strictObject({ plan: z.string().min(1) }),
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    run: async (input, ctx) => askPlanApproval(input.plan, ctx),
  }),
  true,
);

/** The old board tools (everyone on the team) and the old protocol answers (teammates). */
export const OLD_BOARD_TOOLS: AnyTool[] = [taskGet, taskCreate, taskUpdate];
export const OLD_PROTOCOL_TOOLS: AnyTool[] = [shutdownResponse, requestPlanApproval];
