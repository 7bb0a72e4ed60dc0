/**
 * A separate process writing memories as fast as it can: `count` times, one
 * memory of its own and the shared one, each body long and stamped with the
 * writer and the round so a torn or mixed file shows. Prints `done`.
 */
import { writeMemory } from '../../../../src/agent/memory/store.js';

const [dir, writer, count] = process.argv.slice(2) as [string, string, string];

export const bodyOf = (writer: string, round: number): string =>
  `${writer}:${round}\n${`${writer}:${round};`.repeat(2_000)}`;

for (let round = 0; round < Number(count); round++) {
  for (const name of [`${writer}-${round}`, 'shared']) {
    const written = await writeMemory(dir, {
      name,
      description: `${name} by ${writer}`,
      type: 'project',
      body: bodyOf(writer, round),
    });
    if (!written.ok) throw new Error(written.error);
  }
}
console.log('done');
