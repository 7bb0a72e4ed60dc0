/** The agent runtime: the event-stream loop, its options and events, transcripts, and headless runs. */
export { AgentRuntime } from './runtime.js';
export { runAgent, type RunAgentOptions } from './run.js';
export {
  DEFAULT_MAX_STOP_HOOK_BLOCKS,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MAX_TURNS,
  DEFAULT_PERMISSION_POLICY,
  DEFAULT_SYSTEM_PROMPT,
  AgentRuntimeOptionsSchema,
  type AgentRuntimeOptions,
  type ResolvedRuntimeOptions,
} from './options.js';
export type { QueuedInput } from './input-queue.js';
export type { AgentEvent, EventBase, PermissionDenial, ResultEvent, ResultSubtype } from './types.js';
export {
  TRANSCRIPT_VERSION,
  TranscriptWriter,
  loadTranscript,
  sanitizeSessionName,
  transcriptPath,
  type LoadedTranscript,
  type TranscriptHeader,
} from './transcript.js';
export {
  OUTPUT_FORMATS,
  exitCodeOf,
  formatEvent,
  printResult,
  runHeadless,
  type HeadlessOutput,
  type HeadlessRun,
  type OutputFormat,
} from './headless.js';
export {
  DEFAULT_CONTEXT_OPTIONS,
  compactHistory,
  historyProblems,
  projectRoots,
  type CompactStage,
  type CompactTrigger,
  type ContextOptions,
  type ProjectRoots,
} from './context/index.js';
export {
  consolidateMemories,
  extractMemories,
  listMemories,
  memorySearchTool,
  memoryWriteTool,
  restoreMemorySnapshot,
  writeMemory,
  type ConsolidateOptions,
  type ConsolidateResult,
  type ExtractOptions,
  type ExtractResult,
  type MemoryEntry,
  type MemoryOptions,
} from './memory/index.js';
export {
  loadMcpConfig,
  loadMcpTools,
  mcpConfigFile,
  type McpConfig,
  type McpLoadOptions,
  type McpServerConfig,
  type McpToolSet,
} from './mcp/index.js';
export {
  loadRoles,
  parseRoleFile,
  projectAgentsDir,
  userAgentsDir,
  type LoadedRoles,
  type RoleSources,
  type SubagentOptions,
  type SubagentRole,
  type SubagentRoleInput,
} from './subagents/index.js';
