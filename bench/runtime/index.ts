/**
 * The agent loop's own overhead, with a zero-latency scripted model and a
 * no-op tool (so what is measured is the runtime, not a model or a tool):
 * - `turn`: from one assistant message to the next (model call, tool
 *   scheduling and run, tool_result bookkeeping, events);
 * - `tool_use → tool start`: from the model stream yielding a complete
 *   tool_use block to the tool's `run` being entered;
 * - `run (1 text turn)`: a whole `submitMessage` answered by one text turn.
 * Prints a table and writes bench/results/runtime.json. A benchmark, not a
 * test: it never fails on a number.
 *
 *   node --import tsx bench/runtime/index.ts [seconds]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../src/model/types.js';
import { defineTool } from '../../src/tools/types.js';

const SECONDS = Number(process.argv[2] ?? 14);
const TURNS_PER_RUN = 10;
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'runtime.json');
const ZERO_USAGE = {
  input_tokens: 1,
  output_tokens: 1,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

interface Stats {
  n: number;
  min: number;
  median: number;
  p99: number;
  max: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return {
    n: sorted.length,
    min: sorted[0] ?? NaN,
    median: pick(0.5),
    p99: pick(0.99),
    max: sorted.at(-1) ?? NaN,
  };
}

/** Notes when each complete tool_use block leaves the model stream. */
class StampingModel implements ModelClient {
  constructor(
    private readonly inner: ModelClient,
    private readonly emitted: number[],
  ) {}

  get model(): string {
    return this.inner.model;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
    for await (const event of this.inner.stream(request)) {
      if (event.type === 'tool_use') this.emitted.push(performance.now());
      yield event;
    }
  }
}

function noopTool(started: number[]) {
  return defineTool({
    name: 'noop',
    description: 'Does nothing.',
    inputSchema: z.strictObject({}),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    run: async () => {
      started.push(performance.now());
      return { content: 'ok' };
    },
  });
}

async function toolTurns(cwd: string, until: number) {
  const turn: number[] = [];
  const pickup: number[] = [];
  for (let run = 0; performance.now() < until; run++) {
    const emitted: number[] = [];
    const started: number[] = [];
    const scripted = new ScriptedModel({
      rules: [
        { times: 'always', usage: ZERO_USAGE, content: [{ type: 'tool_use', name: 'noop', input: {} }] },
      ],
    });
    const runtime = new AgentRuntime({
      model: new StampingModel(scripted, emitted),
      cwd,
      tools: [noopTool(started)],
      maxTurns: TURNS_PER_RUN,
    });
    const assistantAt: number[] = [];
    for await (const event of runtime.submitMessage('go'))
      if (event.type === 'assistant') assistantAt.push(performance.now());
    if (run < 5) continue; // warm-up: JIT, module caches
    for (let i = 1; i < assistantAt.length; i++) turn.push(assistantAt[i]! - assistantAt[i - 1]!);
    for (let i = 0; i < Math.min(emitted.length, started.length); i++) pickup.push(started[i]! - emitted[i]!);
  }
  return { turn, pickup };
}

async function textRuns(cwd: string, until: number): Promise<number[]> {
  const runs: number[] = [];
  for (let run = 0; performance.now() < until; run++) {
    const model = new ScriptedModel({
      rules: [{ times: 'always', usage: ZERO_USAGE, content: [{ type: 'text', text: 'done' }] }],
    });
    const runtime = new AgentRuntime({ model, cwd, tools: [] });
    const began = performance.now();
    for await (const _event of runtime.submitMessage('go')) {
      // drain
    }
    if (run >= 5) runs.push(performance.now() - began);
  }
  return runs;
}

const cwd = await mkdtemp(join(tmpdir(), 'teamd-bench-runtime-'));
try {
  const start = performance.now();
  const { turn, pickup } = await toolTurns(cwd, start + SECONDS * 750);
  const text = await textRuns(cwd, performance.now() + SECONDS * 250);
  const rows: Record<string, Stats> = {
    'turn (model + 1 tool call)': stats(turn),
    'tool_use → tool start': stats(pickup),
    'run (1 text turn)': stats(text),
  };
  const fmt = (v: number) => v.toFixed(3).padStart(9);
  console.log(
    `agent runtime overhead, zero-latency scripted model (ms), ${SECONDS} s, node ${process.version}\n`,
  );
  console.log(
    `${'measure'.padEnd(28)}${'median'.padStart(9)}${'p99'.padStart(9)}${'min'.padStart(9)}${'max'.padStart(9)}${'n'.padStart(8)}`,
  );
  for (const [name, s] of Object.entries(rows)) {
    console.log(
      `${name.padEnd(28)}${fmt(s.median)}${fmt(s.p99)}${fmt(s.min)}${fmt(s.max)}${String(s.n).padStart(8)}`,
    );
  }
  await mkdir(dirname(RESULTS), { recursive: true });
  const report = {
    bench: 'runtime',
    seconds: SECONDS,
    unit: 'ms',
    node: process.version,
    ...rows,
    at: new Date().toISOString(),
  };
  await writeFile(RESULTS, JSON.stringify(report, null, 2) + '\n');
} finally {
  await rm(cwd, { recursive: true, force: true });
}
