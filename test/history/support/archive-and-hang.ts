/** Archives every finished task of argv[2], hanging (for a kill) between writing the archive copy and removing the live file. */
import { TaskStore } from '../../../src/store/tasks/index.js';

const store = await TaskStore.open(process.argv[2]!);
await store.archiveFinished(new Date(Date.now() + 60_000), {
  pause: async () => {
    console.log('paused');
    await new Promise(() => undefined);
  },
});
