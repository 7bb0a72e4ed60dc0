/**
 * A transcript as entries for the page: the newest session of an agent (or
 * the one that worked on a task), read from its end like `teamd top` does,
 * with every tool call paired with its result so the page can fold it.
 * Lines that are not model turns (header, run start, retries, the result)
 * get the same words as `teamd logs --transcript`.
 */
import { basename } from 'node:path';
import type { TeamConfig } from '../config/schema.js';
import { readTail, titleOf } from '../dashboard/actions.js';
import { toolResultText, type ContentBlock } from '../model/types.js';
import {
  blocksOf,
  parseTranscriptText,
  sessionFiles,
  summariseToolInput,
  TranscriptRenderer,
  type TranscriptLine,
} from '../observe/transcript-view.js';
import type { TranscriptEntry, WireTranscript } from './wire.js';

/** A tool's input or result past this is cut (the page is for reading, the file keeps it all). */
const MAX_FIELD = 8_000;
/** The page keeps at most this many entries of one session. */
const MAX_ENTRIES = 400;

const cut = (s: string): string => (s.length > MAX_FIELD ? `${s.slice(0, MAX_FIELD)}\n… (${s.length - MAX_FIELD} more characters)` : s);
const contentOf = (line: TranscriptLine): ContentBlock[] => blocksOf((line.message as { content?: unknown } | undefined)?.content);

function assistantEntries(line: TranscriptLine, tools: Map<string, Extract<TranscriptEntry, { kind: 'tool' }>>): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const b of contentOf(line)) {
    if (b.type === 'thinking') out.push({ kind: 'thinking', words: b.thinking.split(/\s+/).filter(Boolean).length });
    if (b.type === 'redacted_thinking') out.push({ kind: 'thinking', words: null });
    if (b.type === 'text' && b.text.trim()) out.push({ kind: 'text', text: b.text.trimEnd() });
    if (b.type !== 'tool_use') continue;
    const input = cut(JSON.stringify(b.input, null, 2) ?? '');
    const entry = { kind: 'tool' as const, id: b.id, name: b.name, summary: summariseToolInput(b.name, b.input), input, result: null, isError: false };
    tools.set(b.id, entry);
    out.push(entry);
  }
  return out;
}

function userEntries(line: TranscriptLine, tools: Map<string, Extract<TranscriptEntry, { kind: 'tool' }>>): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const b of contentOf(line)) {
    if (b.type === 'text' && b.text.trim()) out.push({ kind: 'prompt', text: cut(b.text) });
    if (b.type !== 'tool_result') continue;
    const call = tools.get(b.tool_use_id);
    if (call) Object.assign(call, { result: cut(toolResultText(b)), isError: b.is_error === true });
  }
  return out;
}

const toneOf = (line: TranscriptLine): 'muted' | 'warn' | 'bad' | 'ok' =>
  line.type === 'result' ? (line.is_error === true ? 'bad' : 'ok') : line.subtype === 'retry' || line.subtype === 'api_retry' ? 'warn' : 'muted';

/** Entries for parsed transcript lines, oldest first, the newest MAX_ENTRIES kept. */
export function transcriptEntries(lines: readonly TranscriptLine[], config: Pick<TeamConfig, 'prices'>): TranscriptEntry[] {
  const tools = new Map<string, Extract<TranscriptEntry, { kind: 'tool' }>>();
  const renderer = new TranscriptRenderer({ prices: config.prices });
  const out: TranscriptEntry[] = [];
  for (const line of lines) {
    if (typeof line.depth === 'number' && line.depth > 0) continue;
    if (line.type === 'assistant') out.push(...assistantEntries(line, tools));
    else if (line.type === 'user') out.push(...userEntries(line, tools));
    else for (const text of renderer.render(line)) out.push(line.type === 'header' ? { kind: 'header', text } : { kind: 'note', text, tone: toneOf(line) });
    if (line.type === 'assistant') renderer.render(line); // keeps its turn count for the result line
  }
  return out.slice(-MAX_ENTRIES);
}

/** Does this session work on `task` (its run-start line names it)? Read from the file's head. */
const sessionOf = (lines: readonly TranscriptLine[], task: string): boolean => lines.some((l) => l.parent_id === task);

/** The agent's newest session, or (given `task`) its newest session that worked on that task. */
export async function readTranscript(repoRoot: string, config: Pick<TeamConfig, 'prices'>, agent: string, task?: string): Promise<WireTranscript> {
  for (const file of sessionFiles(repoRoot, agent).reverse()) {
    const lines = parseTranscriptText(await readTail(file).catch(() => ''));
    if (task !== undefined && !sessionOf(lines, task)) continue;
    return { agent, session: basename(file), title: titleOf(agent, file, lines), entries: transcriptEntries(lines, config) };
  }
  return { agent, session: null, title: agent, entries: [] };
}
