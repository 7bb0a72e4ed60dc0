import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext, type ToolOutput } from '../../tools/types.js';
import { answerShutdown, askPlanApproval } from './protocol-tools.js';
import { ChangeSchema, changeTask } from './task-update.js';
import { CreateSchema, createTask } from './task-create.js';
import { showTask } from './task-list.js';

/**
 * The team tools' old names, folded into `task_list`, `task_write` and
 * `send_message`. Still callable — a resumed transcript, an agent file or a
 * script that names them works as before — but unlisted: their schemas are
 * never sent, so they cost no tokens. Flags as the old tools had them.
 */
function oldTool<S extends z.ZodType>(
  name: string,
  inputSchema: S,
  flags: { readOnly: boolean; concurrent: boolean },
  run: (input: z.infer<S>, ctx: ToolContext) => Promise<ToolOutput>,
): AnyTool {
  return defineTool({
    name,
    description: `The old name of a team tool (${name}).`,
    inputSchema,
    unlisted: true,
    isReadOnly: () => flags.readOnly,
    isConcurrencySafe: () => flags.concurrent,
    run,
  });
}

const reads = { readOnly: true, concurrent: true };
const writes = { readOnly: false, concurrent: false };
const answers = { readOnly: true, concurrent: false };

/** The old board tools (everyone on the team). */
export const OLD_BOARD_TOOLS: AnyTool[] = [
  oldTool('task_get', z.strictObject({ id: z.string() }), reads, async (i, ctx) => showTask(i.id, ctx)),
  oldTool('task_create', CreateSchema, writes, createTask),
  oldTool('task_update', ChangeSchema, writes, changeTask),
];

/** The old protocol answers (teammates). */
export const OLD_PROTOCOL_TOOLS: AnyTool[] = [
  oldTool(
    'shutdown_response',
    z.strictObject({ request_id: z.string(), approve: z.boolean(), reason: z.string().default('') }),
    answers,
    async (i, ctx) => answerShutdown(i.request_id, i.approve, i.reason, ctx),
  ),
  oldTool('request_plan_approval', z.strictObject({ plan: z.string().min(1) }), answers, async (i, ctx) =>
    askPlanApproval(i.plan, ctx),
  ),
];
