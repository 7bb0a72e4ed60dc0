/**
 * `--input-format stream-json`: prompts on stdin as Claude Code takes them,
 * one JSON object per line, `{"type":"user","message":{"role":"user",
 * "content":"…" | [blocks]}}`. Each becomes one run of the same conversation;
 * a bad line is an error naming its line number.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ContentBlock } from '../model/types.js';
import { CliError } from './cli-error.js';

const UserLineSchema = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({
    role: z.literal('user'),
    content: z.union([z.string().min(1), z.array(z.looseObject({ type: z.string() })).min(1)]),
  }),
});

export async function* streamJsonPrompts(input: Readable): AsyncGenerator<string | ContentBlock[]> {
  let n = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    n += 1;
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new CliError(
        `teamd agent --input-format stream-json: stdin line ${n}: not valid JSON: ${(error as Error).message}`,
      );
    }
    const parsed = UserLineSchema.safeParse(json);
    if (!parsed.success)
      throw new CliError(
        `teamd agent --input-format stream-json: stdin line ${n}: ${z.prettifyError(parsed.error)}`,
      );
    yield parsed.data.message.content as string | ContentBlock[];
  }
}
