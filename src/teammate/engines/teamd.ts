/** The `teamd` engine: teamd's own AgentRuntime, as it always ran teammates. */
import type { AgentEvent, ResultEvent } from '../../agent/types.js';
import { createTeammateRuntime } from '../runtime-factory.js';
import type { EngineSession, StartEngine } from './types.js';

async function drain(events: AsyncGenerator<AgentEvent>): Promise<ResultEvent | null> {
  let result: ResultEvent | null = null;
  for await (const e of events) if (e.type === 'result') result = e;
  return result;
}

export const startTeamdEngine: StartEngine = (host, spec): EngineSession => {
  const runtime = createTeammateRuntime(host, spec);
  return {
    runtime,
    submit: (text) => drain(runtime.submitMessage(text)),
    enqueue: (text) => runtime.enqueue(text),
    interrupt: () => runtime.interrupt(),
    close: () => runtime.close(),
  };
};
