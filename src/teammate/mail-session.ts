/**
 * An idle teammate answering mail. It runs a short conversation in the shared
 * tree with no editing tools (isolation is never skipped: edits happen only in
 * a task's worktree); the model may reply, create tasks or answer a protocol.
 */
import type { Message } from '../store/types.js';
import { startEngine, type EngineSession } from './engines/index.js';
import type { ActiveRun, TeammateHost } from './host.js';
import { handOffRewakes } from './hook-wake.js';
import { formatMail } from './prompts.js';

export function answerMailWhileIdle(host: TeammateHost, batch: Message[]): ActiveRun {
  let runtime: EngineSession | null = null;
  const done = (async () => {
    runtime = startEngine(host, {
      cwd: host.deps.data.repoRoot,
      worktree: null,
      readOnly: true,
      parentId: `mail:${batch[0]?.id ?? 'none'}`,
      onEvent: (e) => {
        if (e.type !== 'user') return;
        const c = e.message.content;
        void host.desk.confirm(typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : '')).join('\n'));
      },
    });
    host.desk.attach((text) => runtime?.enqueue(text));
    try {
      const prompt = `You have new messages. Answer them if needed (send_message), or act on the board; you are not on a task now.\n\n${formatMail(batch)}`;
      await runtime.submit(prompt); // events go to the transcript; the result needs no action
    } finally {
      host.desk.detach();
      handOffRewakes(host, runtime);
      void runtime.close(); // its transcript file, MCP servers and session tasks (left open, one descriptor per mail batch: issue 24)
    }
  })();
  return { interrupt: () => runtime?.interrupt(), done };
}
