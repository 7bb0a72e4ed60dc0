/**
 * An agent file's `tools:` / `disallowedTools:` list in Claude Code's names
 * (`Read, Bash`, `Bash(git:*)`, `mcp__github__create_issue`), as teamd tool
 * names plus the permission rules the entries carried. An unknown name is
 * kept (a tool of that name may exist, e.g. an embedding's own) and warned
 * about; so is a name that maps to a nearest tool (`MultiEdit` → `edit`).
 */
import { teamdToolNames } from '../../tools/claude-names.js';

export interface MappedTools {
  /** Whole tools (entries without a rule, and the tools of entries with one). */
  tools: string[];
  /** Entries with a rule (`Bash(git:*)`), as permission rules. */
  rules: string[];
  /** The tools of entries without a rule only (for `disallowedTools`: a rule denies a pattern, not the tool). */
  plain: string[];
}

export function mapToolList(
  entries: string[] | undefined,
  where: string,
  warnings: string[],
): MappedTools | undefined {
  if (entries === undefined) return undefined;
  const out: MappedTools = { tools: [], rules: [], plain: [] };
  for (const entry of entries) {
    const mapped = teamdToolNames(entry);
    if (!mapped.ok) {
      warnings.push(
        `${where}: "${mapped.name}" is not a teamd or Claude Code tool; kept, matches no built-in tool`,
      );
      out.tools.push(mapped.name);
      out.plain.push(mapped.name);
      continue;
    }
    if (mapped.note) warnings.push(`${where}: ${mapped.note}`);
    out.tools.push(...mapped.tools);
    if (mapped.rule) out.rules.push(mapped.rule);
    else out.plain.push(...mapped.tools);
  }
  const unique = (list: string[]): string[] => [...new Set(list)];
  return { tools: unique(out.tools), rules: unique(out.rules), plain: unique(out.plain) };
}
