/**
 * Oversized tool results: the model gets the head and the tail with a note
 * saying how much was cut and where the whole output was saved, a file under
 * `.team/state/tool-output/` of the repository, which it can read in parts.
 */
import { join } from 'node:path';
import type { ToolResultBlock } from '../../model/types.js';
import { writeFileAtomic } from '../../store/atomic.js';
import { toolResultText } from '../../model/types.js';

export interface TrimSettings {
  maxChars: number;
  /** The folder full outputs are saved to. */
  saveDir: string;
  /** Prefix of the saved files' names (the session id). */
  prefix: string;
}

export const toolOutputDir = (stateRoot: string): string => join(stateRoot, '.team', 'state', 'tool-output');

const resultText = (block: ToolResultBlock): string => toolResultText(block);

const safeName = (text: string): string => text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);

/** `text` cut to `maxChars` (head and tail, 40/60: errors tend to be at the end), with `note` between. */
export function headAndTail(text: string, maxChars: number, note: (cut: number) => string): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.4);
  const tail = maxChars - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n\n${note(cut)}\n\n${text.slice(text.length - tail)}`;
}

async function save(settings: TrimSettings, block: ToolResultBlock, text: string): Promise<string> {
  const file = join(settings.saveDir, `${safeName(settings.prefix)}-${safeName(block.tool_use_id)}.txt`);
  try {
    await writeFileAtomic(file, text);
    return `the full output (${text.length} characters) is saved in ${file}`;
  } catch (error) {
    return `the full output could not be saved (${(error as Error).message})`;
  }
}

export async function trimToolResult(
  block: ToolResultBlock,
  settings: TrimSettings,
): Promise<ToolResultBlock> {
  const text = resultText(block);
  if (text.length <= settings.maxChars) return block;
  const where = await save(settings, block, text);
  const content = headAndTail(
    text,
    settings.maxChars,
    (cut) => `[… ${cut} characters cut from the middle of this tool result; ${where} …]`,
  );
  return { ...block, content };
}

export const trimToolResults = (
  blocks: ToolResultBlock[],
  settings: TrimSettings,
): Promise<ToolResultBlock[]> => Promise.all(blocks.map((block) => trimToolResult(block, settings)));
