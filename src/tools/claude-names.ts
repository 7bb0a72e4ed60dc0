/**
 * Claude Code's names for our tools. Permission rules (`Bash(npm test:*)`) and
 * hook matchers (`"matcher": "Edit|Write"`) are written with these, so a
 * user's existing settings work unchanged.
 */
const KNOWN: Record<string, string> = {
  bash: 'Bash',
  edit: 'Edit',
  write: 'Write',
  read: 'Read',
  glob: 'Glob',
  grep: 'Grep',
  todo_write: 'TodoWrite',
  web_fetch: 'WebFetch',
  web_search: 'WebSearch',
  task: 'Task',
};

/** `bash` → `Bash`, `send_message` → `SendMessage`; `mcp__server__tool` names stay as they are. */
export function claudeCodeToolName(name: string): string {
  if (name.startsWith('mcp__')) return name;
  return (
    KNOWN[name] ??
    name
      .split(/[_-]/)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')
  );
}

/** Claude Code's name → ours, for the built-in tools (`Bash` → `bash`); undefined for others. */
export function teamdToolName(claudeName: string): string | undefined {
  return Object.entries(KNOWN).find(([, cc]) => cc === claudeName)?.[0];
}

/** Names Claude Code has used for the same tool (its `Task` tool is `Agent` in newer versions). */
const ALIASES: Record<string, string[]> = { Task: ['Agent'] };

/** Every name a hook matcher may use for this tool: ours, Claude Code's, and its other names. */
export function toolNameVariants(name: string): string[] {
  const cc = claudeCodeToolName(name);
  return [...new Set([name, cc, ...(ALIASES[cc] ?? [])])];
}
