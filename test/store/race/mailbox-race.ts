import { describe, expect, it } from 'vitest';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { raceScript, spawnTs } from '../../support/race/spawn-ts.js';
import { tempRepo } from '../temp-repo.js';

const SENDERS = 8;
const MESSAGES = 500;
const RECIPIENT = 'worker-1';

/** The recipient's side: take and ack until `expected` messages arrived or the senders are all gone and the inbox is empty. */
async function receive(
  mailbox: MailboxStore,
  expected: number,
  sendersDone: () => boolean,
): Promise<string[]> {
  const received: string[] = [];
  const deadline = Date.now() + 170_000;
  while (received.length < expected && Date.now() < deadline) {
    const batch = await mailbox.take(RECIPIENT);
    received.push(...batch.map((m) => m.id));
    if (batch.length) {
      const acked = await mailbox.ack(
        RECIPIENT,
        batch.map((m) => m.id),
      );
      expect(acked.ok).toBe(true);
    } else if (sendersDone() && (await mailbox.peek(RECIPIENT)).length === 0) break;
    else await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return received;
}

/** Registers this race's tests; `process-races.test.ts` runs all races one after another. */
export function mailboxRaceSuite(): void {
  describe('mailbox race between processes', () => {
    it(
      `${SENDERS} processes × ${MESSAGES} messages into one inbox while the recipient takes and acks: none lost, none twice`,
      { timeout: 180_000 },
      async () => {
        const repo = await tempRepo('teamd-mail-race-');
        const senders = Array.from({ length: SENDERS }, (_, i) =>
          spawnTs(raceScript('send-worker.ts'), [repo.root, `sender-${i}`, RECIPIENT, String(MESSAGES)]),
        );
        try {
          await Promise.all(senders.map((s) => s.waitForLine((l) => l === 'ready')));
          for (const s of senders) s.child.stdin!.write('go\n');
          let finished = 0;
          const sentLists = senders.map(async (s) => {
            const line = await s.waitForLine((l) => l.startsWith('sent '), 170_000);
            finished++;
            return JSON.parse(line.slice('sent '.length)) as string[];
          });
          const mailbox = new MailboxStore(repo.root);
          const received = await receive(mailbox, SENDERS * MESSAGES, () => finished === SENDERS);
          const sent = (await Promise.all(sentLists)).flat();

          expect(sent.length).toBe(SENDERS * MESSAGES);
          expect(new Set(sent).size).toBe(sent.length);
          expect(received.length).toBe(sent.length);
          expect(new Set(received)).toEqual(new Set(sent));
          const archived = (await mailbox.history(RECIPIENT)).map((m) => m.id);
          expect(archived.length).toBe(sent.length);
          expect(new Set(archived)).toEqual(new Set(sent));
          expect(await mailbox.peek(RECIPIENT)).toEqual([]);
          expect(await mailbox.problems()).toEqual([]);
        } finally {
          for (const s of senders) s.child.kill('SIGKILL');
          await Promise.all(senders.map((s) => s.exited));
          await repo.cleanup();
        }
      },
    );
  });
}
