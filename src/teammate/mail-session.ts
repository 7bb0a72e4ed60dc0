/**
 * An idle teammate answering mail: one idle turn (idle-session.ts) whose
 * prompt is the batch; the model may reply, create tasks or answer a
 * protocol. Each message the conversation shows is confirmed to the desk.
 */
import type { Message } from '../store/types.js';
import type { ActiveRun, TeammateHost } from './host.js';
import { runIdleTurn } from './idle-session.js';
import { formatMail } from './prompts.js';

export function answerMailWhileIdle(host: TeammateHost, batch: Message[]): ActiveRun {
  return runIdleTurn(host, {
    parentId: `mail:${batch[0]?.id ?? 'none'}`,
    prompt: `You have new messages. Answer them (team do send) or act on the board only if needed; you are not on a task now.\n\n${formatMail(batch)}`,
    onEvent: (e) => {
      if (e.type !== 'user') return;
      const c = e.message.content;
      void host.desk.confirm(typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : '')).join('\n'));
    },
  });
}
