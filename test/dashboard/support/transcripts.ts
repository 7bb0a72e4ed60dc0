/** Builds transcript files as the agent runtime writes them: a header line, then AgentEvent lines. */
import { mkdirSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Usage } from '../../../src/model/types.js';

export interface SessionSpec {
  agent: string;
  session: string;
  /** The events' parent_id: a task id, `mail:<id>`, or null. */
  parent: string | null;
  model?: string;
  /** The file's modification time (epoch ms), for progress checks. */
  mtime?: number;
}

export const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: cacheRead,
  cache_creation_input_tokens: cacheWrite,
});

let uuid = 0;
const base = (s: SessionSpec, depth = 0) => ({
  session_id: s.session,
  parent_id: s.parent,
  depth,
  uuid: `u-${++uuid}`,
});

export const line = {
  header: (s: SessionSpec) => ({
    type: 'header',
    version: 1,
    session_id: s.session,
    agent: s.agent,
    model: s.model ?? 'claude-sonnet-5-5',
    cwd: `/repo/.worktrees/${s.parent ?? 'x'}`,
    created: '2026-11-29T09:50:00.000Z',
  }),
  init: (s: SessionSpec) => ({
    type: 'system',
    subtype: 'init',
    model: s.model ?? 'claude-sonnet-5-5',
    tools: ['read', 'bash'],
    cwd: `/repo/.worktrees/${s.parent ?? 'x'}`,
    agent: s.agent,
    ...base(s),
  }),
  prompt: (s: SessionSpec, text: string) => ({
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text }] },
    ...base(s),
  }),
  text: (s: SessionSpec, text: string, u: Usage, model?: string, depth = 0) => ({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text }] },
    model: model ?? s.model ?? 'claude-sonnet-5-5',
    usage: u,
    ...base(s, depth),
  }),
  tool: (
    s: SessionSpec,
    id: string,
    name: string,
    input: Record<string, unknown>,
    u: Usage,
    model?: string,
  ) => ({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    model: model ?? s.model ?? 'claude-sonnet-5-5',
    usage: u,
    ...base(s),
  }),
  toolResult: (s: SessionSpec, id: string, content: string, isError = false) => ({
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }],
    },
    ...base(s),
  }),
  result: (
    s: SessionSpec,
    perModel: Record<string, Usage>,
    costUsd: number,
    turns: number,
    subtype = 'success',
    error?: string,
  ) => ({
    type: 'result',
    subtype,
    is_error: subtype !== 'success',
    result: 'done',
    duration_ms: 1500,
    duration_api_ms: 1200,
    num_turns: turns,
    total_cost_usd: costUsd,
    usage: perModel,
    permission_denials: [],
    ...(error ? { error } : {}),
    ...base(s),
  }),
};

export const sessionFile = (root: string, s: SessionSpec): string =>
  join(root, '.team', 'state', 'transcripts', s.agent, `${s.session}.jsonl`);

/** Writes (or appends to) a session file; sets its mtime when the spec has one. */
export function writeSession(root: string, s: SessionSpec, lines: object[], append = false): string {
  const file = sessionFile(root, s);
  mkdirSync(join(file, '..'), { recursive: true });
  const text = lines.map((l) => JSON.stringify(l) + '\n').join('');
  if (append) appendFileSync(file, text);
  else writeFileSync(file, text);
  if (s.mtime !== undefined) utimesSync(file, new Date(s.mtime), new Date(s.mtime));
  return file;
}
