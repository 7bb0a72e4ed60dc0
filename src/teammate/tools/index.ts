import type { AnyTool } from '../../tools/types.js';
import { OLD_BOARD_TOOLS, OLD_PROTOCOL_TOOLS } from './old-names.js';
import { SEND_MESSAGE, type Sender } from './send-message.js';
import { taskListTool } from './task-list.js';
import { TASK_WRITE } from './task-write.js';

export type { TeamServices } from './services.js';
export type { ProtocolServices } from './protocol-tools.js';
export type { Sender } from './send-message.js';

/**
 * The tools a team member gets for teamwork: three offered — the board
 * (`task_list`, `task_write`) and the mail (`send_message`, which also carries a
 * teammate's shutdown and plan answers) — and the old names, callable but
 * unlisted (src/teammate/tools/old-names.ts).
 */
export const teamTools = (sender: Sender): AnyTool[] => [
  taskListTool,
  TASK_WRITE[sender === 'lead' ? 'lead' : 'teammate'],
  SEND_MESSAGE[sender],
  ...OLD_BOARD_TOOLS,
  ...(sender === 'lead' ? [] : OLD_PROTOCOL_TOOLS),
];

/** Names of every team tool, offered or old (the token ledger's coordination, an agent file's `tools:`). */
export const TEAM_TOOL_NAMES: readonly string[] = [...new Set(teamTools('plan').map((t) => t.name))];

/**
 * Permission rules (Claude Code names) that let the team tools run without
 * asking: they only touch the board and the mailboxes, which is what a
 * teammate is for. A deny rule in the config still wins over these.
 */
export const TEAM_TOOL_RULES = ['TaskWrite', 'TaskList', 'TaskCreate', 'TaskGet', 'TaskUpdate', 'SendMessage', 'ShutdownResponse', 'RequestPlanApproval', 'MemorySearch'];
