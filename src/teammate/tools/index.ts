import type { AnyTool } from '../../tools/types.js';
import { OLD_BOARD_TOOLS, OLD_PROTOCOL_TOOLS } from './old-names.js';
import { SEND_MESSAGE, type Sender } from './send-message.js';
import { taskListTool } from './task-list.js';
import { TASK_WRITE } from './task-write.js';
import { TEAM_TOOL } from './team-tool.js';

export type { TeamServices } from './services.js';
export type { ProtocolServices } from './protocol-tools.js';
export type { Sender } from './send-message.js';

const unlisted = (tool: AnyTool): AnyTool => ({ ...tool, unlisted: true });
/** A teammate's task_list, task_write and send_message: callable, not offered (its `team` tool does their work). */
const UNLISTED = {
  teammate: [taskListTool, TASK_WRITE.teammate, SEND_MESSAGE.teammate].map(unlisted),
  plan: [taskListTool, TASK_WRITE.teammate, SEND_MESSAGE.plan].map(unlisted),
};

/**
 * The tools a team member gets for teamwork. The lead, which plans the
 * board, is offered three: `task_list`, `task_write` and `send_message`. A
 * teammate, which works one task at a time, is offered one, `team`
 * (./team-tool.ts: list, get, new, fail, send, and its shutdown and plan
 * answers), whose schema every request carries; the three and the old names
 * (./old-names.ts) stay callable, unlisted.
 */
export const teamTools = (sender: Sender): AnyTool[] =>
  sender === 'lead'
    ? [taskListTool, TASK_WRITE.lead, SEND_MESSAGE.lead, ...OLD_BOARD_TOOLS]
    : [TEAM_TOOL[sender], ...UNLISTED[sender], ...OLD_BOARD_TOOLS, ...OLD_PROTOCOL_TOOLS];

/** Names of every team tool, offered or old (the token ledger's coordination, an agent file's `tools:`). */
export const TEAM_TOOL_NAMES: readonly string[] = [...new Set([...teamTools('plan'), ...teamTools('lead')].map((t) => t.name))];

/**
 * Permission rules (Claude Code names) that let the team tools run without
 * asking: they only touch the board and the mailboxes, which is what a
 * teammate is for. A deny rule in the config still wins over these.
 */
export const TEAM_TOOL_RULES = ['Team', 'TaskWrite', 'TaskList', 'TaskCreate', 'TaskGet', 'TaskUpdate', 'SendMessage', 'ShutdownResponse', 'RequestPlanApproval', 'MemorySearch'];
