/** `teamd mcp`: the team's files as MCP tools (docs/MCP.md). */
export { buildMcpServer, SERVER_NAME } from './server.js';
export { serveStdio } from './stdio.js';
export { serveHttp, MCP_PATH, type HttpMcp } from './http.js';
export { ALL_TOOLS, toolsFor } from './tool-list.js';
export type { McpScope, McpTool } from './types.js';
export { mcpSchemaTokens } from './schema-tokens.js';
