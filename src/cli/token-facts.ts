/**
 * What `teamd cost --tokens` and `bench/tokens` tell the token ledger about
 * the team: which tools are team tools, each tool's schema size, and the team
 * part of each teammate's system prompt (its prompt without its role).
 */
import type { TeamConfig } from '../config/schema.js';
import { rosterOf } from '../config/load.js';
import { estimateTokens, estimateToolTokens } from '../model/usage.js';
import type { TeamFacts } from '../observe/token-ledger.js';
import { teammateSystemPrompt } from '../teammate/prompts.js';
import { TEAM_TOOL_NAMES, teamTools } from '../teammate/tools/index.js';
import { builtinTools, toolDefinition } from '../tools/index.js';
import { cronTools } from '../tools/cron/index.js';
import { memorySearchTool, memoryWriteTool } from '../agent/memory/tools.js';
import { wireTool } from '../model/wire-tools.js';

export function teamFactsOf(config: TeamConfig): TeamFacts {
  const tokens = new Map<string, number>();
  // a teammate's team tool (not plan mode's, whose description is longer)
  const known = [...builtinTools(), ...teamTools('teammate'), ...cronTools];
  // Sized as sent (src/model/wire-tools.ts); the memory tools' schemas do not depend on their folder.
  for (const tool of [...known, memoryWriteTool('.memory'), memorySearchTool('.memory')])
    tokens.set(tool.name, estimateToolTokens([wireTool(toolDefinition(tool))]) - 1);
  const roster = rosterOf(config);
  const teamPrompt = new Map<string, number>();
  for (const mate of config.teammates) {
    const worktree = config.worktrees.mode === 'off' ? null : '.worktrees/<task>';
    const prompt = teammateSystemPrompt({
      name: mate.name,
      role: mate.role,
      roster,
      worktree,
      planMode: mate.planMode,
    });
    teamPrompt.set(mate.name, Math.max(0, estimateTokens(prompt) - estimateTokens(mate.role)));
  }
  return {
    teamTools: new Set(TEAM_TOOL_NAMES),
    // an unknown (MCP) tool: a typical schema's size
    toolTokens: (name) => tokens.get(name) ?? 200,
    teamPromptTokens: (agent) => teamPrompt.get(agent) ?? 0,
  };
}
