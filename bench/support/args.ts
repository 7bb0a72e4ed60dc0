/** The options every benchmark understands: `--quick` (a short run) and `--seconds <n>` where time-boxed. */
export interface BenchArgs {
  quick: boolean;
  seconds?: number;
}

export function benchArgs(argv: readonly string[] = process.argv.slice(2)): BenchArgs {
  const at = argv.indexOf('--seconds');
  const seconds = at >= 0 ? Number(argv[at + 1]) : undefined;
  // The old positional form (`index.ts 14`) still works for the runtime and cron benches.
  const positional = argv.find((a) => /^\d+(\.\d+)?$/.test(a) && argv[argv.indexOf(a) - 1] !== '--seconds');
  return {
    quick: argv.includes('--quick'),
    seconds: seconds ?? (positional === undefined ? undefined : Number(positional)),
  };
}

/** `full` in a normal run, `quick` with `--quick`. */
export const sized = <T>(args: BenchArgs, full: T, quick: T): T => (args.quick ? quick : full);
