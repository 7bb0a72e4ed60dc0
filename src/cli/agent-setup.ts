/**
 * The runtime and print options of `teamd agent -p` from its flags and the
 * files a repository set up for Claude Code has: `.team/config.json`, hooks
 * and permissions (`.claude/settings*.json`, `--settings`), MCP servers (`.mcp.json`,
 * `--mcp-config`), agent files (`.claude/agents/`), and the session to resume.
 */
import { join } from 'node:path';
import type { AgentRuntimeOptions } from '../agent/options.js';
import type { PermissionPolicy } from '../agent/permissions/types.js';
import type { PrintOptions } from '../agent/print/types.js';
import { loadRoles } from '../agent/subagents/roles.js';
import { defaultModelFor, MODEL_ALIASES } from '../agent/subagents/model-choice.js';
import { loadConfig } from '../config/load.js';
import { createHookRunner, type HookRunner } from '../hooks/index.js';
import type { HookMcpAnswer, HookMcpCall } from '../hooks/types.js';
import { createModelClient, SCRIPTED_PREFIX } from '../model/factory.js';
import { modelInfo, warnUnknownModel } from '../model/models.js';
import { thinkingOptionsOf } from '../model/thinking.js';
import type { AgentFlags } from './agent.js';
import { settingsPermissions } from './agent-permissions.js';
import { hookSources, jsonOf, mcpSources, sessionToResume } from './agent-sources.js';
import { addedDirs } from './add-dir.js';
import { agentsFlag } from './agents-flag.js';
import { CliError } from './cli-error.js';
import { permissionPromptTool } from './permission-prompt-tool.js';
import { printWarning } from './output.js';

/** `Bash(npm test:*) Edit,Read` → three rules: split on commas and spaces outside parentheses. */
export function parseToolRules(values: string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = '';
    for (const ch of value) {
      depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (current) rules.push(current);
        current = '';
      } else current += ch;
    }
    if (current) rules.push(current);
  }
  return rules;
}

/** Where `agent -p` keeps its session transcripts (for hooks' `transcript_path`, `--resume`, `--continue`). */
export const agentTranscriptDir = (cwd: string): string =>
  join(cwd, '.team', 'state', 'transcripts', 'agent');

export interface HeadlessSetup {
  options: AgentRuntimeOptions;
  print: Partial<PrintOptions>;
}

/**
 * The permission rules: `.team/config.json`, then Claude Code's settings
 * (`.claude/settings*.json`, `--settings`), then the flags; the mode from
 * `--dangerously-skip-permissions`, `--permission-mode`, the settings, the config.
 */
async function policyOf(
  flags: AgentFlags,
  config: PermissionPolicy,
  cwd: string,
): Promise<PermissionPolicy & { additionalDirectories: string[] }> {
  const flagSettings = flags.settings === undefined ? undefined : jsonOf('--settings', flags.settings, cwd);
  const settings = await settingsPermissions(cwd, flagSettings);
  for (const problem of settings.problems) printWarning(problem);
  const added = addedDirs(flags.addDir, settings.additionalDirectories, cwd);
  for (const warning of added.warnings) printWarning(warning);
  const mode = flags.dangerouslySkipPermissions
    ? 'bypassPermissions'
    : (flags.permissionMode ?? settings.defaultMode ?? config.defaultMode);
  return {
    defaultMode: mode,
    allow: [...config.allow, ...settings.allow, ...parseToolRules(flags.allowedTools)],
    deny: [...config.deny, ...settings.deny, ...parseToolRules(flags.disallowedTools)],
    ask: [...config.ask, ...settings.ask],
    additionalDirectories: added.dirs,
  };
}

/** `--fallback-model a,b`: Claude Code tries them in order; teamd has one fallback, the first (a warning says so). */
function fallbackOf(flag: string | undefined, configured: string | undefined): string | undefined {
  if (flag === undefined) return configured;
  const [first, ...rest] = flag.split(',').map((m) => m.trim()).filter(Boolean);
  if (first === undefined) throw new CliError('teamd agent --fallback-model: no model named');
  if (rest.length > 0) printWarning(`--fallback-model: teamd falls back to one model; ${rest.join(', ')} not used`);
  return MODEL_ALIASES[first] ?? first;
}

/** The runtime options for a headless run in `cwd`: model, limits, permissions, hooks, MCP servers, agents, from flags and files. */
export async function headlessSetup(flags: AgentFlags, cwd: string): Promise<HeadlessSetup> {
  const loaded = await loadConfig(cwd);
  if (!loaded.ok) throw new CliError(loaded.error);
  const config = loaded.config;
  // Claude Code's aliases: --model sonnet | opus | haiku
  const name = flags.model === undefined ? config.model : (MODEL_ALIASES[flags.model] ?? flags.model);
  const fallback = fallbackOf(flags.fallbackModel, config.fallbackModel);
  // Claude Code's own rule: a fallback equal to the main model is refused.
  if (flags.fallbackModel !== undefined && fallback === name)
    throw new CliError('teamd agent --fallback-model: the fallback model cannot be the same as the main model');
  const model = await createModelClient(name, {
    cwd,
    fallbackModel: fallback,
    prices: config.prices,
    record: flags.record,
    retry: config.retry,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
  }).catch((error: unknown) => {
    throw new CliError(`teamd agent --model: ${(error as Error).message}`);
  });
  if (!name.startsWith(SCRIPTED_PREFIX)) warnUnknownModel(modelInfo(name, config.prices), printWarning);
  const hooks = await hookSources(cwd, config.hooks, flags.settings);
  for (const problem of hooks.problems) printWarning(problem);
  const mcp = mcpSources(cwd, flags.mcpConfig, flags.strictMcpConfig ?? false);
  const flagAgents = agentsFlag(flags.agents, cwd);
  for (const warning of flagAgents.warnings) printWarning(warning);
  const { roles } = await loadRoles(cwd, flagAgents.roles);
  const { additionalDirectories, ...policy } = await policyOf(flags, config.permissions, cwd);
  const permissionMode = policy.defaultMode;
  const transcriptDir = agentTranscriptDir(cwd);
  const resume = sessionToResume(transcriptDir, flags);
  const created = createHookRunner(hooks.settings, {
    cwd,
    permissionMode,
    // a hook's `model` as a role's: the session's own when none, or when the session runs a script
    model: (name) => defaultModelFor(model, name),
    ...(hooks.allowedHttpHookUrls ? { allowedHttpHookUrls: hooks.allowedHttpHookUrls } : {}),
    onFailure: (failure) => printWarning(`hook ${failure.event} could not run: ${failure.message}`),
  });
  // The session's MCP connections reach the hooks; --permission-prompt-tool asks through them too.
  let mcpCaller: ((call: HookMcpCall) => Promise<HookMcpAnswer>) | undefined;
  const runner: HookRunner = {
    ...created,
    useMcpTools: (caller) => {
      mcpCaller = caller;
      created.useMcpTools?.(caller);
    },
  };
  const options: AgentRuntimeOptions = {
    model,
    cwd,
    ...(additionalDirectories.length === 0 ? {} : { additionalDirectories }),
    maxTurns: flags.maxTurns,
    maxBudgetUsd: flags.maxBudgetUsd ?? config.maxBudgetUsd,
    maxTokens: config.maxTokens,
    thinking: thinkingOptionsOf(config),
    permissionPolicy: policy,
    hooks: runner,
    ...(flags.permissionPromptTool === undefined ? {} : { canUseTool: permissionPromptTool(flags.permissionPromptTool, () => mcpCaller) }),
    prices: config.prices,
    transcriptDir,
    subagents: flagAgents.roles.length === 0 ? {} : { roles: flagAgents.roles },
    ...(mcp.options === false ? {} : { mcp: mcp.options }),
    ...(resume === undefined ? {} : { resume }),
    ...(resume !== undefined && flags.forkSession === true ? { forkSession: true } : {}),
    ...(flags.systemPrompt === undefined ? {} : { systemPrompt: flags.systemPrompt }),
    ...(flags.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: flags.appendSystemPrompt }),
  };
  const print: Partial<PrintOptions> = {
    includePartialMessages: flags.includePartialMessages ?? false,
    replayUserMessages: flags.replayUserMessages ?? false,
    permissionMode,
    apiKeySource:
      model.model.startsWith(SCRIPTED_PREFIX) || !process.env.ANTHROPIC_API_KEY
        ? 'none'
        : 'ANTHROPIC_API_KEY',
    mcpServers: mcp.names,
    agents: [...roles.keys()],
  };
  return { options, print };
}
