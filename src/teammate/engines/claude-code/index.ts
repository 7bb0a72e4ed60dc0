/** The `claude-code` engine: a teammate's session on the Claude Code CLI, from its config. */
import { transcriptsDir, runBudget } from '../../runtime-factory.js';
import { teammateAddedDirs } from '../../added-dirs.js';
import type { TeammateHost } from '../../host.js';
import type { StartEngine } from '../types.js';
import { watchingAsks } from './asks.js';
import { claudeArgs, MCP_SERVER, type ClaudeRunSettings } from './args.js';
import { claudeBin, claudeEnv, mcpConfigJson } from './env.js';
import { ClaudeCodeSession } from './session.js';

export { ClaudeCodeSession } from './session.js';

function settingsOf(host: TeammateHost, readOnly: boolean): ClaudeRunSettings {
  const { data } = host.deps;
  const added = teammateAddedDirs(data);
  for (const warning of added.warnings) host.deps.log({ type: 'notice', agent: host.name, message: warning });
  const cfg = data.teammate;
  const left = cfg.maxBudgetUsd === undefined ? undefined : Math.max(0.000001, cfg.maxBudgetUsd - host.status.current.costUsd);
  return {
    name: host.name,
    model: data.model,
    maxTurns: cfg.maxTurns,
    budgetUsd: runBudget(left, data.team.taskBudgetUsd),
    tools: cfg.tools,
    permissions: cfg.permissions ?? data.team.permissions,
    role: cfg.role,
    mcpConfig: mcpConfigJson(host.name, data.repoRoot),
    readOnly,
    planMode: cfg.planMode,
    addDirs: added.dirs,
    extra: data.team.claudeCode?.args ?? [],
  };
}

export const startClaudeCodeEngine: StartEngine = (host, spec) => {
  const { data } = host.deps;
  const cc = data.team.claudeCode;
  const session = new ClaudeCodeSession({
    bin: claudeBin(cc?.bin),
    args: claudeArgs(settingsOf(host, spec.readOnly)),
    cwd: spec.cwd,
    // The CLI connects MCP servers in the background; the permission prompt tool must be there from the start.
    env: claudeEnv(data.teammate.endpoint ?? data.team.endpoint, { CLAUDE_CODE_MCP_PREWAIT_SERVERS: MCP_SERVER, ...cc?.env }),
    agent: host.name,
    model: data.model,
    parentId: spec.parentId,
    transcriptDir: transcriptsDir(data.repoRoot, host.name),
    ...(host.deps.viaLead === undefined ? {} : { openTranscript: host.deps.viaLead.openTranscript }),
    onEvent: spec.onEvent,
    notice: (message) => host.deps.log({ type: 'notice', agent: host.name, message }),
  });
  // Its permission asks are filed by `teamd mcp --as`, another process: the request files tell when it waits.
  const onWaiting = (waiting: boolean): void => void host.setState(waiting ? 'waiting' : 'working', host.status.current.task);
  return watchingAsks(session, { repoRoot: data.repoRoot, agent: host.name, onWaiting });
};
