/**
 * End of a session: the facts a conversation marks as persistent become
 * memories. A fact is marked by `<remember>…</remember>` or by a line that
 * starts with `REMEMBER:` in a user or assistant text (tool results and the
 * injected session context do not count). Nothing marked: nothing is
 * written and the model is not called. Otherwise the model turns the marks
 * into entries (name, description, type, content); when its answer is
 * unusable, or there is no model, each mark becomes a memory of its own.
 */
import { z } from 'zod';
import type { ConversationMessage, ModelClient } from '../../model/types.js';
import { SESSION_CONTEXT_OPEN } from '../context/session-context.js';
import { blocksOf } from '../context/turns.js';
import { writeMemory, type WrittenMemory } from './store.js';
import type { MemoryInput } from './types.js';

export interface ExtractOptions {
  /** The memory folder. */
  dir: string;
  signal?: AbortSignal;
  agent?: string;
  /** The type of a memory the model gives none (and of the fallback entries). Default `project`. */
  defaultType?: string;
}

export interface ExtractResult {
  /** The marked facts found, in order. */
  marked: string[];
  written: WrittenMemory[];
  problems: string[];
}

const TAGGED = /<remember>([\s\S]*?)<\/remember>/g;
const LINE = /^\s*REMEMBER:\s*(.+)$/gm;

/** The marked facts of a conversation, each once, in order. */
export function markedFacts(messages: readonly ConversationMessage[]): string[] {
  const facts: string[] = [];
  for (const block of messages.flatMap(blocksOf)) {
    if (block.type !== 'text' || block.text.startsWith(SESSION_CONTEXT_OPEN)) continue;
    for (const match of block.text.matchAll(TAGGED)) facts.push(match[1]!.trim());
    for (const match of block.text.matchAll(LINE)) facts.push(match[1]!.trim());
  }
  return [...new Set(facts.filter((f) => f !== ''))];
}

const EntriesSchema = z.array(
  z.object({
    name: z.string().min(1),
    description: z.string().min(1),
    type: z.string().optional(),
    content: z.string().min(1),
  }),
);

const EXTRACT_SYSTEM = [
  'You turn facts an agent was asked to remember into memory entries for later sessions.',
  'Answer with a JSON array only: [{"name": "short-id", "description": "one line", "type": "user|project|feedback|reference", "content": "the fact, in Markdown"}].',
  'Merge facts about the same topic into one entry. Keep every fact; add nothing that is not in them.',
].join('\n');

async function askModel(
  facts: string[],
  model: ModelClient,
  opts: ExtractOptions,
): Promise<MemoryInput[] | null> {
  const request = `<facts_to_remember>\n${facts.map((f) => `- ${f}`).join('\n')}\n</facts_to_remember>`;
  try {
    for await (const event of model.stream({
      system: EXTRACT_SYSTEM,
      messages: [{ role: 'user', content: request }],
      tools: [],
      maxTokens: 2_048,
      signal: opts.signal ?? new AbortController().signal,
      ...(opts.agent === undefined ? {} : { agent: opts.agent }),
    })) {
      if (event.type !== 'done') continue;
      const text = event.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const json = text.slice(text.indexOf('['), text.lastIndexOf(']') + 1);
      const parsed = EntriesSchema.safeParse(JSON.parse(json));
      if (!parsed.success || parsed.data.length === 0) return null;
      const type = opts.defaultType ?? 'project';
      return parsed.data.map((e) => ({
        name: e.name,
        description: e.description,
        type: e.type ?? type,
        body: e.content,
      }));
    }
  } catch {
    // an unusable answer: each fact is kept as it is instead
  }
  return null;
}

function factAsEntry(fact: string, type: string): MemoryInput {
  const words = fact.split(/\s+/).slice(0, 6).join('-');
  const firstLine = fact.split('\n')[0]!;
  return { name: words, description: firstLine.slice(0, 200), type, body: fact };
}

/** Extracts the marked facts of a conversation (or a runtime's) into memories in `opts.dir`. */
export async function extractMemories(
  source: { readonly messages: readonly ConversationMessage[] } | readonly ConversationMessage[],
  model: ModelClient | null,
  opts: ExtractOptions,
): Promise<ExtractResult> {
  const messages = 'messages' in source ? source.messages : source;
  const marked = markedFacts(messages);
  if (marked.length === 0) return { marked, written: [], problems: [] };
  const entries =
    (model ? await askModel(marked, model, opts) : null) ??
    marked.map((f) => factAsEntry(f, opts.defaultType ?? 'project'));
  const written: WrittenMemory[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const result = await writeMemory(opts.dir, entry);
    if (result.ok) written.push(result.value);
    else problems.push(result.error);
  }
  return { marked, written, problems };
}
