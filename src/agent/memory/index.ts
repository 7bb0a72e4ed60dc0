/** Memory across sessions: `.memory/<name>.md` files, their index, search, extraction and consolidation. */
export {
  consolidateMemories,
  duplicateGroups,
  type ConsolidateOptions,
  type ConsolidateResult,
} from './consolidate.js';
export { extractMemories, markedFacts, type ExtractOptions, type ExtractResult } from './extract.js';
export { parseMemory, readMemory, renderMemory, sanitizeMemoryName } from './files.js';
export { keywordSearch, modelSearch } from './search.js';
export { restoreMemorySnapshot } from './snapshots.js';
export {
  listMemories,
  memoryIndexFile,
  rebuildIndex,
  writeMemory,
  type MemoryListing,
  type WrittenMemory,
} from './store.js';
export { memorySearchTool, memoryWriteTool } from './tools.js';
export { MEMORY_INDEX, type MemoryEntry, type MemoryInput, type MemoryOptions } from './types.js';
