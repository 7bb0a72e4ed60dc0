/** One memory file: its name rules, its path, reading and rendering it. */
import { join } from 'node:path';
import { z } from 'zod';
import { readTeamFile } from '../../store/team-file.js';
import type { Outcome } from '../../store/types.js';
import { fieldText, parseFrontMatter, renderFrontMatter } from '../context/front-matter.js';
import { MEMORY_INDEX, MemoryFrontMatterSchema, type MemoryEntry } from './types.js';

/** Makes any name a memory id (IdSchema rules): other characters become `-`, no `..`, ≤ 64; `MEMORY` is reserved. */
export function sanitizeMemoryName(name: string): Outcome<string> {
  const cleaned = name
    .trim()
    .replace(/\.md$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[.-]+$/, '');
  if (cleaned === '')
    return { ok: false, error: `memory name ${JSON.stringify(name)} has no usable characters` };
  if (`${cleaned}.md`.toLowerCase() === MEMORY_INDEX.toLowerCase())
    return { ok: false, error: 'the memory name MEMORY is reserved for the index' };
  return { ok: true, value: cleaned };
}

export const memoryFile = (dir: string, name: string): string => join(dir, `${name}.md`);

export function parseMemory(text: string, file: string): Outcome<MemoryEntry> {
  const doc = parseFrontMatter(text, file);
  if (!doc.ok) return doc;
  const fields = ['name', 'description', 'type', 'updated'].flatMap((key) => {
    const value = fieldText(doc.value.data, key);
    return value === undefined ? [] : [[key, value]];
  });
  const front = MemoryFrontMatterSchema.safeParse(Object.fromEntries(fields));
  if (!front.success)
    return { ok: false, error: `${file}: ${z.prettifyError(front.error).replace(/\n/g, '; ')}` };
  return { ok: true, value: { ...front.data, body: doc.value.body, file } };
}

/** A memory file is small: anything past this is refused unread (as is a link, FIFO or device). */
export const MEMORY_FILE_LIMIT = 1024 * 1024;

/** The text of a memory file, read through the safe reader (a FIFO or /dev/zero link is refused, never read). */
export async function readMemoryText(file: string): Promise<Outcome<string>> {
  const read = await readTeamFile(file, file, MEMORY_FILE_LIMIT);
  if (read.kind === 'text') return { ok: true, value: read.text };
  return {
    ok: false,
    error: read.kind === 'missing' ? `${file}: missing` : `${file}: ${read.problem.message}`,
  };
}

export async function readMemory(file: string): Promise<Outcome<MemoryEntry>> {
  const text = await readMemoryText(file);
  if (!text.ok) return text;
  try {
    return parseMemory(text.value, file);
  } catch (error) {
    return { ok: false, error: `${file}: ${(error as Error).message}` };
  }
}

export function renderMemory(entry: Omit<MemoryEntry, 'file'>): string {
  const front: Record<string, string> = {
    name: entry.name,
    description: entry.description,
    type: entry.type,
  };
  if (entry.updated !== undefined) front.updated = entry.updated;
  return renderFrontMatter(front, entry.body);
}

/** The index line of one memory. */
export const indexLine = (entry: MemoryEntry): string =>
  `- [${entry.name}](${entry.name}.md) (${entry.type}): ${entry.description.replace(/\s+/g, ' ')}`;
