/** MCP servers from `.mcp.json`, their tools as `mcp__<server>__<tool>`. */
export { loadMcpConfig, expandVariables, type McpConfig } from './config.js';
export { parseServer } from './server-config.js';
export { loadMcpTools, mcpConfigFile } from './load.js';
export { mcpToolName } from './tool.js';
export {
  McpRemoteServerSchema,
  McpStdioServerSchema,
  type McpLoadOptions,
  type McpServerConfig,
  type McpToolSet,
} from './types.js';
