/** Which tools a scope gets: a person gets answers to approvals and reviews; an agent its permission prompt. */
import { APPROVAL_TOOLS } from './tools-approvals.js';
import { CRON_TOOLS } from './tools-cron.js';
import { MAIL_TOOLS } from './tools-mail.js';
import { STATUS_TOOLS } from './tools-status.js';
import { TASK_TOOLS } from './tools-tasks.js';
import { permissionPrompt } from './permission-prompt.js';
import type { McpScope, McpTool } from './types.js';

export const ALL_TOOLS: readonly McpTool[] = [
  ...TASK_TOOLS,
  ...MAIL_TOOLS,
  ...STATUS_TOOLS,
  ...APPROVAL_TOOLS,
  ...CRON_TOOLS,
  permissionPrompt,
];

export function toolsFor(scope: McpScope): McpTool[] {
  const mode = scope.as === null ? 'person' : 'agent';
  return ALL_TOOLS.filter((t) => t.scope === undefined || t.scope === mode);
}
