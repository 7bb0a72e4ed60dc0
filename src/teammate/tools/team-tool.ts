import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext, type ToolOutput } from '../../tools/types.js';
import { answerShutdown, askPlanApproval } from './protocol-tools.js';
import { sendMail } from './send-message.js';
import { sentSchema } from './sent-schema.js';
import { teamServices } from './services.js';
import { createTask } from './task-create.js';
import { showTask, taskListTool } from './task-list.js';
import { changeTask } from './task-update.js';

/**
 * A teammate's one team tool: the board and the mail behind one verb, `do`.
 * Every request carries its schema, so it is sent as four untyped fields and
 * five verbs (≈ 37 tokens; the three tools it replaces for a teammate were
 * ≈ 174): what each verb needs is said by the refusal when it is missing,
 * the one time a model gets it wrong. The full zod schema still checks every
 * input, naming the field; `task_list`, `task_write` and `send_message` stay
 * callable (unlisted) for scripts and resumed transcripts, and the lead keeps
 * them offered (docs/DECISIONS.md, "One team tool for a teammate").
 */
const VERBS = ['list', 'get', 'new', 'fail', 'cancel', 'send', 'shutdown', 'done'] as const;
const OFFERED = 'do: list, get, new, fail, send';
const PLAN =
  '; plan mode: explore, then do plan, text your plan (changes file by file, how you will verify them), and wait: editing waits for approval';

const schemaFor = (plan: boolean) =>
  z.strictObject({
    do: z.enum(plan ? [...VERBS, 'plan'] : VERBS),
    /** A task id (get, fail, cancel) or a shutdown request's id. */
    id: z.string().optional(),
    /** A recipient: a teammate, lead, user or * (all). */
    to: z.string().optional(),
    /** A new task's subject, a reason, a message or a plan. */
    text: z.string().optional(),
    // accepted, not offered: a new task's details, a list filter, a shutdown answer
    description: z.string().optional(),
    blockedBy: z.array(z.string()).optional(),
    status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']).optional(),
    approve: z.boolean().optional(),
  });
export type TeamInput = z.infer<ReturnType<typeof schemaFor>>;

const refuse = (content: string): ToolOutput => ({ content: `team: ${content}`, isError: true });

function newTask(input: TeamInput, ctx: ToolContext): Promise<ToolOutput> | ToolOutput {
  if (!input.text) return refuse('new needs text, the task\'s subject (description and blockedBy are optional)');
  const { description, blockedBy } = input;
  return createTask({ subject: input.text, ...(description ? { description } : {}), ...(blockedBy ? { blockedBy } : {}) }, ctx);
}

function endTask(input: TeamInput, status: 'failed' | 'cancelled', ctx: ToolContext): Promise<ToolOutput> | ToolOutput {
  if (!input.id) return refuse(`${input.do} needs id, the task's id (and text, why)`);
  return changeTask({ id: input.id, status, ...(input.text ? { reason: input.text } : {}) }, ctx);
}

function send(input: TeamInput, ctx: ToolContext): Promise<ToolOutput> | ToolOutput {
  if (!input.to) return refuse(`send needs to: ${teamServices(ctx).roster().join(', ')} or * (all)`);
  if (!input.text) return refuse('send needs text, the message');
  return sendMail(input.to, input.text, ctx);
}

function shutdown(input: TeamInput, ctx: ToolContext): Promise<ToolOutput> | ToolOutput {
  if (!input.id || input.approve === undefined) return refuse('shutdown needs id (the request\'s) and approve true or false');
  return answerShutdown(input.id, input.approve, input.text ?? '', ctx);
}

/** Runs one verb; what a verb lacks comes back as a refusal naming the field. */
export function runTeam(input: TeamInput, ctx: ToolContext): Promise<ToolOutput> | ToolOutput {
  switch (input.do) {
    case 'list':
      return taskListTool.run(input.status ? { status: input.status } : {}, ctx);
    case 'get':
      return input.id ? showTask(input.id, ctx) : refuse('get needs id, the task\'s id');
    case 'new':
      return newTask(input, ctx);
    case 'fail':
    case 'cancel':
      return endTask(input, input.do === 'fail' ? 'failed' : 'cancelled', ctx);
    case 'send':
      return send(input, ctx);
    case 'shutdown':
      return shutdown(input, ctx);
    case 'plan':
      return input.text ? askPlanApproval(input.text, ctx) : refuse('plan needs text, your plan');
    case 'done':
      return { content: 'Nothing to do: your task completes with your final answer, a summary of what you did.' };
  }
}

const QUIET = new Set<string>(['list', 'get', 'send', 'done']);

function teamToolFor(plan: boolean): AnyTool {
  const schema = schemaFor(plan);
  return defineTool({
    name: 'team',
    description: OFFERED + (plan ? PLAN : ''),
    inputSchema: schema,
    inputJsonSchema: sentSchema(schema, ['do', 'id', 'to', 'text']),
    isReadOnly: (input: TeamInput) => input.do === 'list' || input.do === 'get' || input.do === 'done',
    // a protocol answer waits for the lead or ends the teammate, a board write is ordered: only reads and mail run side by side
    isConcurrencySafe: (input: TeamInput) => QUIET.has(input.do),
    run: async (input: TeamInput, ctx) => runTeam(input, ctx),
  });
}

/** One object each, so its JSON Schema is made once. */
export const TEAM_TOOL = { teammate: teamToolFor(false), plan: teamToolFor(true) };
