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

/**
 * The other way: the teamd tools a Claude Code tool name stands for, as an
 * agent file's `tools:` or `disallowedTools:` names them. `Bash` brings the
 * background-shell tools with it (Claude Code's `Bash` has them built in);
 * `MultiEdit` and `LS` have no tool of their own here and map to the
 * nearest one (`edit`, `glob`), with a note.
 */
const FROM_CLAUDE_CODE: Record<string, { tools: string[]; note?: string }> = {
  Read: { tools: ['read'] },
  Write: { tools: ['write'] },
  Edit: { tools: ['edit'] },
  MultiEdit: { tools: ['edit'], note: 'MultiEdit is edit here (one replacement per call)' },
  Bash: { tools: ['bash', 'bash_output', 'bash_kill'] },
  BashOutput: { tools: ['bash_output'] },
  TaskOutput: { tools: ['bash_output'] },
  KillShell: { tools: ['bash_kill'] },
  KillBash: { tools: ['bash_kill'] },
  Glob: { tools: ['glob'] },
  LS: { tools: ['glob'], note: 'LS is glob here' },
  Grep: { tools: ['grep'] },
  TodoWrite: { tools: ['todo_write'] },
  WebFetch: { tools: ['web_fetch'] },
  WebSearch: { tools: ['web_search'] },
  Task: { tools: ['task'] },
  Agent: { tools: ['task'] },
  SendMessage: { tools: ['send_message'] },
  CronCreate: { tools: ['cron_create'] },
  CronDelete: { tools: ['cron_delete'] },
  CronList: { tools: ['cron_list'] },
};

/** teamd's own tool names, accepted as they are in an agent file (`tools: read, bash`). */
export const TEAMD_TOOL_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(KNOWN),
  ...Object.values(FROM_CLAUDE_CODE).flatMap((entry) => entry.tools),
  'memory_write',
  'memory_search',
]);

/** One entry of an agent file's tool list, resolved. `rule` is a permission rule it carried (`Bash(git:*)`). */
export type ClaudeToolMapping =
  { ok: true; tools: string[]; rule?: string; note?: string } | { ok: false; name: string };

const RULE = /^([A-Za-z_][\w-]*)\((.*)\)$/s;

/** `Read` → `read`; `Bash(git:*)` → `bash` (+ its background tools) with the rule; `mcp__x__y` as it is. */
export function teamdToolNames(entry: string): ClaudeToolMapping {
  const text = entry.trim();
  if (/^mcp__[\w-]+(__[\w.*-]+)?$/.test(text)) return { ok: true, tools: [text] };
  const rule = RULE.exec(text);
  const name = rule ? rule[1]! : text;
  const known = FROM_CLAUDE_CODE[name];
  if (known)
    return {
      ok: true,
      tools: known.tools,
      ...(rule ? { rule: text } : {}),
      ...(known.note ? { note: known.note } : {}),
    };
  if (TEAMD_TOOL_NAMES.has(name))
    return { ok: true, tools: [name], ...(rule ? { rule: `${claudeCodeToolName(name)}(${rule[2]})` } : {}) };
  return { ok: false, name: text };
}
