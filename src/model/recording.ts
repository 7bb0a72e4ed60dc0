/**
 * `RecordingModel`: wraps any model and saves each answer as a script step
 * that `ScriptedModel` replays offline, so a run against the real API becomes
 * a demo or a regression test. Each step is appended under a file lock (read,
 * append, atomic write), so every teammate — thread or process — can record
 * into one file. The file is appended to; `RecordingModel.startFile` empties it.
 */
import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../store/atomic.js';
import { withLock, type LockOptions } from '../store/lock.js';
import { factsOf } from './scripted/conversation.js';
import { loadScript } from './scripted/load.js';
import type { Script, ScriptBlock, ScriptStep } from './scripted/schema.js';
import type { ContentBlock, ModelClient, ModelRequest, ModelStreamEvent } from './types.js';

export interface RecordingOptions {
  /** The script file to append to. */
  file: string;
  /**
   * `match` (default): each step is keyed by agent and by the exact latest
   * user text, so replays survive reordering. `ordered`: keyed by agent only,
   * replayed in recorded order (robust when tool output varies run to run).
   */
  mode?: 'match' | 'ordered';
  /** Lock options over the defaults (tests: a short staleness, a stop inside the critical section). */
  lock?: LockOptions;
}

type Done = Extract<ModelStreamEvent, { type: 'done' }>;

export class RecordingModel implements ModelClient {
  readonly model: string;
  /** Recording failures (the run goes on; the answers still reach the caller). */
  readonly errors: string[] = [];

  constructor(
    private readonly inner: ModelClient,
    private readonly options: RecordingOptions,
  ) {
    this.model = inner.model;
  }

  /** Writes an empty script to `file`, so a new recording does not append to an old one. */
  static async startFile(file: string, description = 'Recorded by teamd'): Promise<void> {
    await writeFileAtomic(file, JSON.stringify({ description, steps: [] }, null, 2) + '\n');
  }

  async warm(): Promise<void> {
    await this.inner.warm?.();
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
    for await (const event of this.inner.stream(request)) {
      // The step is on disk before the caller sees `done`, so a crash right after loses nothing.
      if (event.type === 'done' && event.stopReason !== 'aborted')
        await this.#save(this.#stepOf(request, event), event.model);
      yield event;
    }
  }

  #stepOf(request: ModelRequest, done: Done): ScriptStep {
    const step: Partial<ScriptStep> = {};
    if (request.agent !== undefined) step.agent = request.agent;
    if ((this.options.mode ?? 'match') === 'match') step.match = exactly(factsOf(request).latestUserText);
    if (done.error) {
      const { kind, message, status } = done.error;
      step.error =
        status === undefined
          ? { kind, message: escapeDollars(message) }
          : { kind, message: escapeDollars(message), status };
      step.content = [];
      return step as ScriptStep;
    }
    step.content = done.message.content.flatMap(scriptBlockOf);
    step.stop_reason = done.stopReason as ScriptStep['stop_reason'];
    step.usage = done.usage;
    return step as ScriptStep;
  }

  async #save(step: ScriptStep, model: string): Promise<void> {
    const { file } = this.options;
    try {
      await withLock(
        file,
        async (fence) => {
          const script = await this.#current(file, model);
          script.steps.push(step);
          // Fenced: a recorder stalled past the staleness must not drop the steps another one appended meanwhile.
          await writeFileAtomic(file, JSON.stringify(script, null, 2) + '\n', { fence });
        },
        { ...LOCK_OPTIONS, ...this.options.lock },
      );
    } catch (err) {
      this.errors.push(`${file}: could not record a step: ${(err as Error).message}`);
    }
  }

  async #current(file: string, model: string): Promise<Script> {
    if (!existsSync(file)) return { description: 'Recorded by teamd', model, steps: [], rules: [] };
    const loaded = await loadScript(file);
    if (!loaded.ok) throw new Error(loaded.error);
    return { ...loaded.value, model: loaded.value.model ?? model };
  }
}

const LOCK_OPTIONS = {
  // A stale lock taken over: the next write re-reads the file anyway.
  onCompromised: () => undefined,
};

function scriptBlockOf(block: ContentBlock): ScriptBlock[] {
  if (block.type === 'text') return [{ type: 'text', text: escapeDollars(block.text) }];
  // signatures are the answering server's: a replay signs the reasoning afresh
  if (block.type === 'thinking') return [{ type: 'thinking', thinking: escapeDollars(block.thinking) }];
  if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking' }];
  if (block.type !== 'tool_use') return [];
  const input = (block.input !== null && typeof block.input === 'object' ? block.input : {}) as Record<
    string,
    unknown
  >;
  return [
    {
      type: 'tool_use',
      id: escapeDollars(block.id),
      name: escapeDollars(block.name),
      input: escapeDeep(input) as Record<string, unknown>,
    },
  ];
}

/** An anchored regex matching exactly `text`. */
export const exactly = (text: string): string => `^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;

/** Replays substitute `$1`-style references; a recorded `$` must stay a `$`. */
const escapeDollars = (text: string): string => text.replaceAll('$', '$$$$');

function escapeDeep(value: unknown): unknown {
  if (typeof value === 'string') return escapeDollars(value);
  if (Array.isArray(value)) return value.map(escapeDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeDeep(v)]));
  }
  return value;
}
