/** One `.claude/agents/<name>.md` role file: front matter plus the system prompt as body. */
import { basename } from 'node:path';
import { z } from 'zod';
import type { Outcome } from '../../store/types.js';
import { fieldList, fieldText, parseFrontMatter } from '../context/front-matter.js';
import { SubagentRoleSchema, type SubagentRole } from './types.js';

export function parseRoleFile(text: string, file: string): Outcome<SubagentRole> {
  const doc = parseFrontMatter(text, file);
  if (!doc.ok) return doc;
  const { data, body } = doc.value;
  const maxTurns = fieldText(data, 'maxTurns');
  const candidate = {
    name: fieldText(data, 'name') ?? basename(file, '.md'),
    description: fieldText(data, 'description') ?? '',
    prompt: body,
    tools: fieldList(data, 'tools'),
    model: fieldText(data, 'model'),
    mcpServers: fieldList(data, 'mcpServers'),
    maxTurns: maxTurns === undefined ? undefined : Number(maxTurns),
  };
  const defined = Object.fromEntries(Object.entries(candidate).filter(([, v]) => v !== undefined));
  const parsed = SubagentRoleSchema.safeParse(defined);
  if (!parsed.success)
    return { ok: false, error: `${file}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
  return { ok: true, value: { ...parsed.data, source: file } };
}
