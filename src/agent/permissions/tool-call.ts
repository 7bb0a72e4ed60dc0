/**
 * What the gate needs to know about one call, in Claude Code's terms: the
 * tool's Claude Code name, its family (rules for `Edit` cover `write`, rules
 * for `Read` cover `glob` and `grep`), and the command or path it touches.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { claudeCodeToolName } from '../../tools/claude-names.js';
import { isInside, resolveInside } from '../../tools/paths.js';
import type { AnyTool } from '../../tools/types.js';

export type CallKind = 'shell' | 'edit' | 'read' | 'other';

export interface ToolCallView {
  /** Claude Code's name: `Bash`, `Edit`, `mcp__github__create_issue`, … */
  name: string;
  kind: CallKind;
  /** For `shell`. */
  command?: string;
  /** For file tools: the target, resolved (symlinks too), and relative to root when inside it. */
  target?: { abs: string; rel: string | null; inside: boolean };
  /** For tools with a `url` input: its host name. */
  domain?: string;
  input: unknown;
}

const KIND: Record<string, CallKind> = {
  Bash: 'shell',
  Edit: 'edit',
  Write: 'edit',
  NotebookEdit: 'edit',
  Read: 'read',
  Glob: 'read',
  Grep: 'read',
};

export function viewCall(tool: AnyTool, input: unknown, where: { root: string; cwd: string; extraRoots?: readonly string[] }): ToolCallView {
  const name = claudeCodeToolName(tool.name);
  const kind = KIND[name] ?? 'other';
  const fields = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const view: ToolCallView = { name, kind, input };
  if (kind === 'shell' && typeof fields.command === 'string') view.command = fields.command;
  const filePath =
    fields.file_path ?? fields.notebook_path ?? fields.path ?? (kind === 'read' ? '.' : undefined);
  if ((kind === 'edit' || kind === 'read') && typeof filePath === 'string')
    view.target = locate(filePath, where);
  if (typeof fields.url === 'string') view.domain = hostOf(fields.url);
  return view;
}

function locate(filePath: string, where: { root: string; cwd: string; extraRoots?: readonly string[] }): NonNullable<ToolCallView['target']> {
  const root = realpathOr(where.root);
  const resolved = resolveInside(root, where.cwd, filePath, where.extraRoots ?? []);
  if (resolved.ok) {
    // a file of an added directory is matched by absolute rules only (`Read(//abs/**)`)
    const rel = isInside(root, resolved.value) ? path.relative(root, resolved.value) || '.' : null;
    return { abs: resolved.value, rel, inside: true };
  }
  const abs = path.resolve(where.cwd, filePath);
  return { abs, rel: null, inside: false };
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
