/**
 * What finished sessions spent, kept between processes in
 * `.team/state/spend-summary.json` (issue 24): the first refresh of `teamd
 * top`, each `teamd cost` and the lead's first budget check would otherwise
 * open every transcript (~20,000 of an idle team's mail batches). An entry
 * is keyed by the session's path under `transcripts/` and stands for the file
 * only while its size and mtime are the ones recorded; it holds the runs'
 * task and per-model usage and dollars, as read (prices are part of the
 * split: a summary made under other prices is not used). Only sessions read
 * to their end with no run open are kept. Soft state, like the mailbox's
 * archive summaries: a garbage, hostile or oversized file, or a bad entry, is
 * ignored (that session is read from its file) and the file written anew.
 */
import { closeSync, constants, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { PriceOverrides } from '../model/pricing.js';
import { freshTempOf } from '../store/atomic.js';
import { teamPaths } from '../store/paths.js';
import { readStateSync, STATE_LIMITS } from '../store/state-file.js';
import { FoldedSessions } from './folded-sessions.js';
import { exact, newSessionSpend, shared, type SessionSpend } from './session-spend.js';
import { isCompressed } from './transcript-files.js';
import type { SessionFileStat } from './transcript-view.js';

const Count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** One model's part of a run: model, dollars, input, output, cache read, cache write. */
const PartSchema = z.tuple([z.string().max(200), z.number().finite(), Count, Count, Count, Count]);
const RunSchema = z.object({ task: z.string().max(500).nullable(), parts: z.array(PartSchema).max(64) });
const EntrySchema = z.object({ size: Count, mtime: z.number().finite(), runs: z.array(RunSchema).max(100_000) });
type Entry = z.infer<typeof EntrySchema>;
/** The sessions' object is taken as parsed (entries are checked when used): a copy of 20,000 keys was most of the load's peak. */
const SessionsSchema = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
/** An agent's folded rows (folded-sessions.ts), each row checked when loaded. */
const FoldedSchema = z.object({
  names: z.array(z.string().max(300)),
  rows: z.custom<number[]>((v) => Array.isArray(v) && v.every((n) => typeof n === 'number')),
  tasks: z.array(z.string().max(500).nullable()),
  models: z.array(z.string().max(200)).max(256),
});
const FoldsSchema = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
const FileSchema = z.object({ version: z.literal(2), prices: z.string(), folded: FoldsSchema, sessions: SessionsSchema });

/**
 * Above this the summary is neither read nor written (sessions are then read
 * from their files): ~150 bytes a folded session, so ~200,000 sessions.
 */
const MAX_BYTES = 2 * STATE_LIMITS.mergeQueue;

export const spendSummaryOf = (repoRoot: string): string => join(teamPaths(repoRoot).state, 'spend-summary.json');

/** Created afresh, never through a link or into a FIFO. */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const pricesKey = (prices: PriceOverrides): string => JSON.stringify(prices);

export class SpendSummary {
  private entries: Record<string, unknown> | null = null;
  /** Per agent, the folded rows read (checked when first asked for). */
  private folded: Record<string, unknown> = {};
  private readonly folds = new Map<string, FoldedSessions | null>();

  constructor(
    private readonly file: string,
    private readonly transcripts: string,
    private readonly prices: PriceOverrides,
  ) {}

  /** The session as summarised, when the summary has it at this size and mtime; else null (read the file). */
  restore(stat: SessionFileStat): SessionSpend | null {
    const entries = this.load();
    const fold = this.foldOf(basename(dirname(stat.file)));
    if (fold?.matches(stat.file, stat.size, stat.mtime)) return fold.take(stat.file) ?? null;
    const key = this.keyOf(stat.file);
    const raw = Object.hasOwn(entries, key) ? entries[key] : undefined;
    const entry = raw === undefined ? null : EntrySchema.safeParse(raw);
    if (!entry?.success || entry.data.size !== stat.size || entry.data.mtime !== stat.mtime) return null;
    return sessionOf(stat, entry.data);
  }

  /**
   * Writes the summary of `sessions` (atomically; a failed write leaves the
   * old file), a chunk at a time: one string of every entry was a peak of
   * its own in `top`'s RSS.
   */
  save(sessions: Iterable<SessionSpend>, folds: Iterable<FoldedSessions>): void {
    const tmp = freshTempOf(this.file);
    let fd: number | null = null;
    try {
      fd = openSync(tmp, WRITE_FLAGS, 0o644);
      writeSync(fd, `{"version":2,"prices":${JSON.stringify(pricesKey(this.prices))},"folded":{`);
      let firstFold = true;
      for (const fold of folds) {
        if (!fold.size) continue;
        writeSync(fd, `${firstFold ? '' : ','}${JSON.stringify(fold.agent)}:${JSON.stringify(fold.data())}`);
        firstFold = false;
      }
      writeSync(fd, '},"sessions":{');
      let chunk: string[] = [];
      let first = true;
      const flush = (): void => {
        if (!chunk.length) return;
        writeSync(fd!, (first ? '' : ',') + chunk.join(','));
        first = false;
        chunk = [];
      };
      for (const s of sessions) {
        if (!settled(s)) continue;
        chunk.push(`${JSON.stringify(this.keyOf(s.file))}:${JSON.stringify(entryOf(s))}`);
        if (chunk.length >= 256) flush();
      }
      flush();
      writeSync(fd, '}}');
      closeSync(fd);
      fd = null;
      if (statSync(tmp).size > MAX_BYTES) return rmSync(tmp, { force: true });
      renameSync(tmp, this.file);
    } catch {
      // soft state: the next reader reads the sessions from their files
      if (fd !== null) closeSync(fd);
      rmSync(tmp, { force: true });
    }
  }

  /** Lets go of the entries read (after a reader's first refresh, its sessions are its own). */
  release(): void {
    this.entries = {};
    this.folded = {};
    this.folds.clear();
  }

  /** The agent's folded rows the summary holds, loaded on first use (null: none, or not well formed). */
  private foldOf(agent: string): FoldedSessions | null {
    const known = this.folds.get(agent);
    if (known !== undefined) return known;
    const raw = Object.hasOwn(this.folded, agent) ? this.folded[agent] : undefined;
    const data = raw === undefined ? null : FoldedSchema.safeParse(raw);
    let fold: FoldedSessions | null = null;
    if (data?.success) {
      fold = new FoldedSessions(join(this.transcripts, agent), shared(agent));
      fold.load(data.data);
    }
    this.folds.set(agent, fold);
    return fold;
  }

  private keyOf(file: string): string {
    return relative(this.transcripts, file).split(sep).join('/');
  }

  /** The entries, read once and checked one by one when used (a bad entry costs only its session). */
  private load(): Record<string, unknown> {
    if (this.entries) return this.entries;
    // Through the safe reader: a FIFO, a link or a huge file there is refused, never read.
    const read = readStateSync(this.file, FileSchema, MAX_BYTES);
    const ok = read.kind === 'ok' && read.value.prices === pricesKey(this.prices);
    this.entries = ok ? read.value.sessions : {};
    this.folded = ok ? read.value.folded : {};
    return this.entries;
  }
}

/**
 * No run open, and read to its end (no torn line left), or restored from a
 * summary (no mark yet), or compressed (finished, read whole).
 */
export const settled = (s: SessionSpend): boolean =>
  s.open.length === 0 && s.size >= 0 && (s.mark === null || isCompressed(s.file) || s.mark.offset === s.size);

function entryOf(s: SessionSpend): Entry {
  const runs: Entry['runs'] = Array.from({ length: s.runs }, () => ({ task: null, parts: [] }));
  for (const spend of s.finished) {
    const run = runs[Number(spend.run.slice(spend.run.lastIndexOf('#') + 1))]!;
    const u = spend.usage;
    run.task = spend.task;
    run.parts.push([spend.model, spend.costUsd, u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens]);
  }
  return { size: s.size, mtime: s.mtime, runs };
}

function sessionOf(stat: SessionFileStat, entry: Entry): SessionSpend {
  const s = newSessionSpend(stat.file);
  s.size = stat.size;
  s.mtime = stat.mtime;
  s.runs = entry.runs.length;
  // Built at its length (session-spend.ts: ~20,000 of these are kept by `teamd top`).
  const finished = entry.runs.flatMap((run, i) =>
    run.parts.map(([model, costUsd, input, output, cacheRead, cacheWrite]) => {
      const usage = { input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite };
      return { run: `${stat.file}#${i}`, agent: s.agent, task: run.task, model: shared(model), usage, costUsd, finished: true };
    }),
  );
  s.finished = exact(finished);
  return s;
}
