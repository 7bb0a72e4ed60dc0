/**
 * Context engineering: what an agent's context holds and how it is kept
 * under the model's window.
 *
 * At the start of a session (the first run of a runtime with an empty
 * conversation) a `<session_context>` block goes before the prompt in the
 * first user message: the agent's identity and role, the date, the git
 * branch and short status, the project instructions (`AGENTS.md` and/or
 * `CLAUDE.md` in every folder from the project root down to the cwd,
 * outermost first) and the memory index (`.memory/MEMORY.md`).
 *
 * Before every model call the context is measured: the input + output
 * tokens the API reported for the latest call, plus an estimate (characters
 * / 4) of what was added since; with no usage yet, the whole request is
 * estimated. Past `clearToolResultsAt` × window, stage 1 runs; past
 * `summariseAt` × window, stage 2 runs too; stage 3 runs when stage 2 is not
 * enough or its model call failed:
 * 1. `clear_tool_results` — tool results older than the `keepRecentTurns`
 *    most recent turns lose their content (a short marker stays; the calls
 *    stay);
 * 2. `summarise` — the history between the first user message and the recent
 *    turns is replaced by a structured summary written by the model (goal,
 *    decisions, files touched, open questions);
 * 3. `truncate` — only the first user message, the summary and the last turn
 *    are kept (with a summary built without the model if its call failed).
 * The new first user message carries a fresh `<session_context>` (so the
 * identity and role are stated again), the original prompt and the summary.
 * Cuts fall just before an assistant message, so a `tool_use` and its
 * `tool_result` (the next user message) always stay together.
 */

/** `AgentRuntimeOptions.context`: every field is optional and has the default shown. */
export interface ContextOptions {
  /** Inject the `<session_context>` at session start and after compaction. Default true. */
  inject: boolean;
  /** Instruction files read in each folder from the project root down to the cwd (then `.claude/CLAUDE.md` and `CLAUDE.local.md`), with their `@imports`. Default `["AGENTS.md", "CLAUDE.md"]`. */
  instructionFiles: string[];
  /** Read the user's `~/.claude/CLAUDE.md` first, as Claude Code does. Default true. */
  userInstructions: boolean;
  /** The model's context window, in tokens. Default 200 000. */
  windowTokens: number;
  /** Fraction of the window at which old tool results are cleared. Default 0.6. */
  clearToolResultsAt: number;
  /** Fraction of the window at which older history is summarised. Default 0.8. */
  summariseAt: number;
  /** Turns (an assistant message and the results answering it) kept verbatim by compaction. Default 4. */
  keepRecentTurns: number;
  /** A tool result longer than this is cut to head + tail; the whole is saved under `.team/state/tool-output/`. Default 40 000. */
  toolResultMaxChars: number;
  /** How many times in a row an answer cut by `max_tokens` is continued. Default 3. */
  maxContinuations: number;
  /** Output tokens of the summarising call. Default 4096. */
  summaryMaxTokens: number;
}

/** The compaction stages, in the order they run. */
export type CompactStage = 'clear_tool_results' | 'summarise' | 'truncate';

/** Why a compaction ran: the context neared the window, or the API refused a prompt as too long. */
export type CompactTrigger = 'auto' | 'prompt_too_long';

/** Where things live for one agent. */
export interface ProjectRoots {
  /** The checkout the agent works in (`git rev-parse --show-toplevel`), else the cwd: instructions, `.mcp.json`, `.claude/agents/`. */
  project: string;
  /** The repository's main working tree (shared by its worktrees), else the cwd: `.team/state/`, `.memory/`. */
  state: string;
}

/** What the session context says about the agent. */
export interface Identity {
  agentName: string;
  /** The role text (`AgentRuntimeOptions.role`), when there is one. */
  role?: string;
}
