// Preloaded into a CLI run by top-young-generation.test.ts: at exit, allocates
// objects of which half stay alive (as a refreshing dashboard does) and prints
// the young generation's size after it. With `--semi-space-growth-factor=1`
// set it stays at its starting size; without, V8 doubles it up to 2 × 16 MB.
const v8 = require('node:v8');
process.on('exit', () => {
  const keep = [];
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < 200_000; i++) {
      const o = { a: i, b: `x${i}` };
      if (i % 2) keep.push(o);
    }
    if (keep.length > 400_000) keep.length = 0;
  }
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  process.stderr.write(`YOUNG ${young.space_size}\n`);
});
