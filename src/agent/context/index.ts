/** Context engineering: session context, tool-result trimming, compaction, recovery. */
export { compactHistory, type CompactInput, type CompactResult } from './compact.js';
export { parseFrontMatter, renderFrontMatter, type FrontMatterDocument } from './front-matter.js';
export { gitStatusSummary, projectRoots } from './git.js';
export { instructionChain, type InstructionFile, type InstructionSources } from './instructions.js';
export { ContextManager } from './manager.js';
export { DEFAULT_CONTEXT_OPTIONS, resolveContextOptions } from './options.js';
export { renderSessionContext } from './session-context.js';
export { estimateRequest } from './tokens.js';
export { toolOutputDir, trimToolResult } from './tool-output.js';
export { historyProblems, recentTurnsStart } from './turns.js';
export type { CompactStage, CompactTrigger, ContextOptions, Identity, ProjectRoots } from './types.js';
