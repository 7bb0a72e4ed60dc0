/**
 * `teamd approvals show <id>`: the whole of one request, every line of it,
 * so a person sees exactly what they approve (the list shows one line of
 * each, and marks the lines it leaves out). Printed terminal-safe: a
 * control or bidi override in a command is shown as an escape, never obeyed.
 */
import { loadRequest, type PendingRequest } from '../teammate/requests.js';
import { fail } from './cli-error.js';
import { indent, printJson, printLine, printRecordLine } from './output.js';
import { resolveRepoDir, type DirOption } from './repo-dir.js';

export function showApproval(id: string, options: DirOption & { json?: boolean }): void {
  const request = loadRequest(resolveRepoDir(options), id) ?? fail(`no request "${id}" (teamd approvals --all lists them)`);
  if (options.json) return printJson(request);
  for (const [key, value] of headRows(request)) printRecordLine(`${`${key}:`.padEnd(10)}${value}`);
  printLine(`summary:\n${indent(request.summary)}`);
  for (const line of inputLines(request.input)) printLine(line);
}

function headRows(r: PendingRequest): [string, string][] {
  const rows: [string, string][] = [
    ['request', r.id],
    ['kind', r.kind],
    ['agent', r.agent],
    ['task', r.task ?? '-'],
    ['status', r.status],
    ['created', r.createdAt],
    ['expires', r.expiresAt ?? 'never'],
  ];
  if (r.tool !== undefined) rows.push(['tool', r.tool]);
  if (r.answer) rows.push(['answer', `by ${r.answer.by} at ${r.answer.at}${r.answer.reason ? `: ${r.answer.reason}` : ''}`]);
  return rows;
}

/** The input in full: a plan's text as it is, a tool's fields one by one (a text field as an indented block). */
function inputLines(input: unknown): string[] {
  if (input === undefined) return [];
  if (typeof input === 'string') return [`input:\n${indent(input)}`];
  if (!input || typeof input !== 'object' || Array.isArray(input))
    return [`input:\n${indent(JSON.stringify(input, null, 2))}`];
  return [
    'input:',
    ...Object.entries(input).map(([key, value]) =>
      typeof value === 'string' ? `  ${key}:\n${indent(indent(value))}` : `  ${key}: ${JSON.stringify(value)}`,
    ),
  ];
}
