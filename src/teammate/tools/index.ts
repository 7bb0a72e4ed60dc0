import type { AnyTool } from '../../tools/types.js';
import { requestPlanApprovalTool, shutdownResponseTool } from './protocol-tools.js';
import { sendMessageTool } from './send-message.js';
import { taskCreateTool } from './task-create.js';
import { taskGetTool } from './task-get.js';
import { taskListTool } from './task-list.js';
import { taskUpdateTool } from './task-update.js';

export type { TeamServices } from './services.js';
export type { ProtocolServices } from './protocol-tools.js';

/** The tools every team member gets for teamwork (the board and the mail). */
export const teamTools = (): AnyTool[] => [taskCreateTool, taskListTool, taskGetTool, taskUpdateTool, sendMessageTool];

/** Protocol answers a teammate may give; plan mode adds the plan request. */
export const protocolTools = (planMode: boolean): AnyTool[] =>
  planMode ? [requestPlanApprovalTool, shutdownResponseTool] : [shutdownResponseTool];

/**
 * Permission rules (Claude Code names) that let the team tools run without
 * asking: they only touch the board and the mailboxes, which is what a
 * teammate is for. A deny rule in the config still wins over these.
 */
export const TEAM_TOOL_RULES = ['TaskCreate', 'TaskList', 'TaskGet', 'TaskUpdate', 'SendMessage', 'ShutdownResponse', 'RequestPlanApproval', 'MemorySearch'];
