/**
 * Renders transcript lines (one JSON event each) for people: assistant text,
 * each tool call with its input summarised and its result trimmed, errors
 * marked, and the cost of each run.
 */
import type { ContentBlock } from '../model/types.js';

type Line = Record<string, unknown> & { type?: string };

const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max)}… (+${s.length - max} chars)` : s);

function inputSummary(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const o = input as Record<string, unknown>;
  const main = o.command ?? o.path ?? o.pattern ?? o.to ?? o.subject ?? o.id;
  return typeof main === 'string' ? cut(main.replace(/\s+/g, ' '), 100) : cut(JSON.stringify(o), 100);
}

function blocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as ContentBlock[]) : [];
}

function resultText(b: Extract<ContentBlock, { type: 'tool_result' }>): string {
  return typeof b.content === 'string' ? b.content : b.content.map((t) => t.text).join('\n');
}

/** Readable lines for one transcript line; empty for lines not worth showing. */
export function renderTranscriptLine(line: Line): string[] {
  const message = line.message as { content?: unknown } | undefined;
  switch (line.type) {
    case 'header':
      return [`── session ${String(line.session_id)} (${String(line.agent)}, ${String(line.model)}) ${String(line.created)}`];
    case 'user':
      return blocks(message?.content).map((b) =>
        b.type === 'tool_result' ? `  ${b.is_error ? '✘' : '↳'} ${cut(resultText(b).replace(/\n/g, ' ⏎ '), 160)}` : b.type === 'text' ? `> ${cut(b.text, 400)}` : '',
      ).filter(Boolean);
    case 'assistant':
      return blocks(message?.content).map((b) =>
        b.type === 'text' ? b.text : b.type === 'tool_use' ? `● ${b.name}(${inputSummary(b.input)})` : '',
      ).filter(Boolean);
    case 'system':
      return line.subtype === 'init' ? [] : [`· ${String(line.message ?? line.subtype)}`];
    case 'result': {
      const cost = typeof line.total_cost_usd === 'number' ? line.total_cost_usd.toFixed(4) : '?';
      const mark = line.is_error ? '✘' : '✔';
      return [`${mark} ${String(line.subtype)} after ${String(line.num_turns)} turns, $${cost}${line.error ? `: ${String(line.error)}` : ''}`];
    }
    default:
      return [];
  }
}
