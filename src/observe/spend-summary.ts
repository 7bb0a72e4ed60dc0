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
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { PriceOverrides } from '../model/pricing.js';
import { freshTempOf } from '../store/atomic.js';
import { teamPaths } from '../store/paths.js';
import { textDepthProblem } from '../store/json-bounds.js';
import { readStateTextSync, STATE_LIMITS } from '../store/state-file.js';
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
const HeaderSchema = z.object({ version: z.literal(3), prices: z.string() });
const SessionsLineSchema = z.object({ sessions: SessionsSchema });

/**
 * Above this the summary is neither read nor written (sessions are then read
 * from their files): ~150 bytes a folded session, so ~200,000 sessions.
 */
const MAX_BYTES = 2 * STATE_LIMITS.mergeQueue;

export const spendSummaryOf = (repoRoot: string): string => join(teamPaths(repoRoot).state, 'spend-summary.json');

/** Created afresh, never through a link or into a FIFO. */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const pricesKey = (prices: PriceOverrides): string => JSON.stringify(prices);

/** An agent's line: `{"agent":"<name>","fold":{…}}`; its name is read without parsing the rest. */
const AGENT_LINE = /^\{"agent":("(?:[^"\\]|\\.){1,400}"),"fold":/;

export class SpendSummary {
  private entries: Record<string, unknown> | null = null;
  /** Per agent, its line not yet parsed (parsed when the reader first asks for that agent: one agent's rows at a time). */
  private foldLines: Map<string, string> | null = null;

  constructor(
    private readonly file: string,
    private readonly transcripts: string,
    private readonly prices: PriceOverrides,
  ) {}

  /** The session as summarised, when the summary has it at this size and mtime; else null (read the file). */
  restore(stat: SessionFileStat): SessionSpend | null {
    const entries = this.load();
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
      writeSync(fd, `${JSON.stringify({ version: 3, prices: pricesKey(this.prices) })}\n`);
      for (const fold of folds)
        if (fold.size) writeSync(fd, `{"agent":${JSON.stringify(fold.agent)},"fold":${JSON.stringify(fold.data())}}\n`);
      writeSync(fd, '{"sessions":{');
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
      writeSync(fd, '}}\n');
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
    this.foldLines = new Map();
  }

  /**
   * The agent's folded rows the summary holds, each still to be confirmed by
   * its file's stamp (folded-sessions.ts): handed over once, to the reader
   * that keeps them (null: none, or not well formed).
   */
  adopt(agent: string): FoldedSessions | null {
    this.load();
    const line = this.foldLines!.get(agent);
    if (line === undefined) return null;
    this.foldLines!.delete(agent);
    const data = FoldedSchema.safeParse(parsedLine(line, 'fold'));
    if (!data.success) return null;
    const fold = new FoldedSessions(join(this.transcripts, agent), shared(agent));
    fold.load(data.data);
    return fold;
  }

  private keyOf(file: string): string {
    return relative(this.transcripts, file).split(sep).join('/');
  }

  /**
   * Reads the file once: a header line (its version and the prices the spends
   * were split under), a line per agent's folded rows, and a line of every
   * other session's entry (checked one by one when used: a bad entry costs
   * only its session). Through the safe reader: a FIFO, a link or a huge
   * file there is refused, never read.
   */
  private load(): Record<string, unknown> {
    if (this.entries) return this.entries;
    this.entries = {};
    this.foldLines = new Map();
    const lines = readStateTextSync(this.file, MAX_BYTES).split('\n');
    const header = HeaderSchema.safeParse(parsedLine(lines[0] ?? ''));
    if (!header.success || header.data.prices !== pricesKey(this.prices)) return this.entries;
    for (const line of lines.slice(1)) {
      const agent = AGENT_LINE.exec(line)?.[1];
      const name = agent === undefined ? undefined : parsedLine(agent);
      if (typeof name === 'string' && !this.foldLines.has(name)) this.foldLines.set(name, line);
      else if (line.startsWith('{"sessions":')) {
        const sessions = SessionsLineSchema.safeParse(parsedLine(line));
        if (sessions.success) this.entries = sessions.data.sessions;
      }
    }
    return this.entries;
  }
}

/** A line parsed (its `field` when given), or undefined when it is not JSON or too deeply nested. */
function parsedLine(line: string, field?: string): unknown {
  if (textDepthProblem(line) !== undefined) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    if (field === undefined) return value;
    return typeof value === 'object' && value !== null && Object.hasOwn(value, field) ? (value as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
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
