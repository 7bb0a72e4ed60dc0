/**
 * The agent loop's own overhead, with a zero-latency scripted model and a
 * no-op tool (so what is measured is the runtime, not a model or a tool):
 * - `turn`: from one assistant message to the next (model call, tool
 *   scheduling and run, tool_result bookkeeping, events);
 * - `tool_use → tool start`: from the model stream yielding a complete
 *   tool_use block to the tool's `run` being entered;
 * - `run (1 text turn)`: a whole `submitMessage` answered by one text turn.
 * Floors, in the same run: the scripted model's stream consumed alone (no
 * runtime) for the same answers. Prints a table and writes
 * bench/results/runtime.json. A benchmark, not a test: it never fails on a number.
 *
 *   npm run bench -- runtime [--quick]
 *   node --import tsx bench/runtime/index.ts [seconds] [--quick]   (uses dist/ as built)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../src/model/types.js';
import { benchArgs } from '../support/args.js';
import { fromDist } from '../support/dist.js';
import { BenchReport } from '../support/report.js';

const { AgentRuntime } = await fromDist<typeof import('../../src/agent/runtime.js')>('agent/runtime.js');
const { ScriptedModel } = await fromDist<typeof import('../../src/model/scripted/scripted-model.js')>(
  'model/scripted/scripted-model.js',
);
const { defineTool } = await fromDist<typeof import('../../src/tools/types.js')>('tools/types.js');

const args = benchArgs();
const SECONDS = args.seconds ?? (args.quick ? 4 : 14);
const TURNS_PER_RUN = 10;
const ZERO_USAGE = {
  input_tokens: 1,
  output_tokens: 1,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

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

/** The floor: the scripted model's stream for one answer, consumed with no runtime around it. */
async function modelAlone(
  content:
    { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown> },
  until: number,
): Promise<number[]> {
  const times: number[] = [];
  const model = new ScriptedModel({ rules: [{ times: 'always', usage: ZERO_USAGE, content: [content] }] });
  const request: ModelRequest = {
    system: '',
    messages: [{ role: 'user', content: 'go' }],
    tools: [],
    maxTokens: 100,
    signal: new AbortController().signal,
  };
  for (let i = 0; performance.now() < until; i++) {
    const began = performance.now();
    for await (const _event of model.stream(request)) {
      // drain
    }
    if (i >= 5) times.push(performance.now() - began);
  }
  return times;
}

const cwd = await mkdtemp(join(tmpdir(), 'teamd-bench-runtime-'));
const report = new BenchReport(
  'runtime',
  `Agent runtime overhead (ms), zero-latency scripted model, ${SECONDS} s`,
  args.quick,
  { seconds: SECONDS },
);
try {
  const start = performance.now();
  const { turn, pickup } = await toolTurns(cwd, start + SECONDS * 600);
  const text = await textRuns(cwd, performance.now() + SECONDS * 200);
  const toolFloor = await modelAlone(
    { type: 'tool_use', name: 'noop', input: {} },
    performance.now() + SECONDS * 100,
  );
  const textFloor = await modelAlone({ type: 'text', text: 'done' }, performance.now() + SECONDS * 100);
  report.row('floor: model stream alone (tool_use answer)', toolFloor);
  report.row('floor: model stream alone (text answer)', textFloor);
  report.row('turn (model + 1 tool call)', turn, 'ms', 'floor: model stream alone (tool_use answer)');
  report.row('tool_use → tool start', pickup);
  report.row('run (1 text turn)', text, 'ms', 'floor: model stream alone (text answer)');
  await report.finish();
} finally {
  await rm(cwd, { recursive: true, force: true });
}
