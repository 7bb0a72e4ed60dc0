/** The context options with their defaults, checked with zod when a runtime is built. */
import { z } from 'zod';
import type { Outcome } from '../../store/types.js';
import type { ContextOptions } from './types.js';

const Fraction = z.number().gt(0).max(1);

export const ContextOptionsSchema = z
  .strictObject({
    inject: z.boolean().default(true),
    instructionFiles: z.array(z.string().min(1)).default(['AGENTS.md', 'CLAUDE.md']),
    userInstructions: z.boolean().default(true),
    windowTokens: z.number().int().min(1_000).default(200_000),
    clearToolResultsAt: Fraction.default(0.6),
    summariseAt: Fraction.default(0.8),
    keepRecentTurns: z.number().int().min(1).default(4),
    toolResultMaxChars: z.number().int().min(1_000).default(40_000),
    maxContinuations: z.number().int().min(0).default(3),
    summaryMaxTokens: z.number().int().min(256).default(4_096),
  })
  .refine((o) => o.clearToolResultsAt <= o.summariseAt, {
    message:
      'clearToolResultsAt must not be above summariseAt (results are cleared before history is summarised)',
    path: ['clearToolResultsAt'],
  });

export const DEFAULT_CONTEXT_OPTIONS: ContextOptions = ContextOptionsSchema.parse({});

/** The options with defaults filled in, or an error naming the field. */
export function resolveContextOptions(given: Partial<ContextOptions> = {}): Outcome<ContextOptions> {
  const parsed = ContextOptionsSchema.safeParse(given);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `invalid AgentRuntimeOptions.context:\n${z.prettifyError(parsed.error)}` };
}
