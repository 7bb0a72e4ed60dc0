/**
 * The lead's side of an out-of-process teammate's transcript (hosts/transcript-client.ts):
 * lines for a session in the caller's own transcripts folder (or its
 * `subagents` folder), under a header naming the caller or one of its
 * subagents, written with the same `TranscriptWriter` a thread teammate uses.
 * Synchronous on purpose: the calls of one teammate are written in the order
 * they came.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { TranscriptHeaderSchema, TranscriptWriter } from '../agent/transcript.js';
import { TRANSCRIPT_CHUNK } from '../teammate/hosts/transcript-client.js';
import { transcriptsDir } from '../teammate/runtime-factory.js';

const AppendSchema = z.object({
  folder: z.enum(['', 'subagents']),
  header: TranscriptHeaderSchema.omit({ type: true, version: true }),
  text: z.string().max(TRANSCRIPT_CHUNK),
});

/** Appends `raw` (a `TranscriptAppend`) of `name` to its transcript in `repoRoot`; throws why it cannot. */
export function appendTranscript(repoRoot: string, name: string, raw: unknown): void {
  const parsed = AppendSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`a transcript append of "${name}": ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ')}`);
  const { folder, header, text } = parsed.data;
  if (header.agent !== name && !header.agent.startsWith(`${name}:`)) throw new Error(`a transcript of "${header.agent}" sent by "${name}"`);
  const opened = TranscriptWriter.open(join(transcriptsDir(repoRoot, name), folder), header);
  if (!opened.ok) throw new Error(opened.error);
  opened.value.appendLines(text);
  opened.value.close();
  if (opened.value.error !== null) throw new Error(opened.value.error);
}
