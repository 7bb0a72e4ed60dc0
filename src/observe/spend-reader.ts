/**
 * Reads transcripts incrementally and keeps what the team spent (issue 24):
 * each session file is read on from where the last call stopped (they are
 * append-only; one truncated or replaced is read again whole), and the
 * totals per teammate, task and model change by the delta of the sessions
 * that changed (spend-totals.ts). A kept reader (`sweepMs`: `teamd top`,
 * `teamd web`) learns from its listings which files changed, so a refresh
 * where one transcript was written does work for that one; a plain reader
 * (`teamd cost`, the lead's budget check) stats every file, and reads and
 * re-sums only the changed ones.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { PriceOverrides } from '../model/pricing.js';
import type { CostGrouping, CostReport, Spend } from './cost.js';
import { FoldedSessions } from './folded-sessions.js';
import { SessionListing, type ListingChanges } from './session-listing.js';
import { newSessionSpend, readSessionSpend, sessionSpends, type SessionSpend } from './session-spend.js';
import { settled, SpendSummary, spendSummaryOf } from './spend-summary.js';
import { sharesOf, SpendTotals } from './spend-totals.js';
import { sessionNames } from './transcript-files.js';
import { transcriptAgents, transcriptsRoot, type SessionFileStat } from './transcript-view.js';

/** Files read synchronously between two turns of the event loop (a first read of 20,000 sessions stays responsive). */
const READ_BATCH = 256;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const byAge = (a: SessionSpend, b: SessionSpend): number => a.mtime - b.mtime || a.file.localeCompare(b.file);

/** A settled session unchanged this long is folded into its agent's rows (folded-sessions.ts). */
const FOLD_AFTER_MS = 60_000;

export class TranscriptSpendReader {
  /** Sessions kept as objects: running, recently written, or of a shape that does not fold. */
  private readonly sessions = new Map<string, SessionSpend>();
  /** Per agent, its settled sessions as rows (folded-sessions.ts). */
  private readonly folds = new Map<string, FoldedSessions>();
  /** Per agent, the paths of its sessions kept as objects. */
  private readonly byAgent = new Map<string, Set<string>>();
  private readonly newest = new Map<string, number>();
  private readonly listings = new Map<string, SessionListing>();
  private readonly totals = new SpendTotals();
  /** Spends read and dropped, not yet in the totals (`applyDelta`). */
  private delta: { add: Spend[]; remove: Spend[] } = { add: [], remove: [] };
  private flat: { version: number; spends: Spend[] } | null = null;
  /** Finished sessions kept between processes (spend-summary.ts); `summary: false`: none. */
  private readonly summary: SpendSummary | null = null;
  /** Settled sessions read from their files since the summary was last written. */
  private unsaved = 0;
  /** Session files read so far (tests: a refresh reads the changed ones only). */
  sessionsRead = 0;
  /** Whether `changed` hints are arriving (a watcher on `.team/state` is up): see session-listing.ts. */
  hinted = false;

  /** Told of every event of the listings' own watchers (`watch`): a transcript was written. */
  onChange: (() => void) | null = null;

  /**
   * `sweepMs`: a long-lived reader keeps its listings (session-listing.ts),
   * swept whole that often; `watch`: each listing watches its folder for
   * hints (else `hinted` and `changed` say what a watcher outside saw).
   */
  constructor(
    private readonly repoRoot: string,
    private readonly prices: PriceOverrides = {},
    private readonly options: { sweepMs?: number; watch?: boolean; summary?: boolean; now?: () => number } = {},
  ) {
    if (options.summary !== false)
      this.summary = new SpendSummary(spendSummaryOf(repoRoot), transcriptsRoot(repoRoot), prices);
  }

  /** Stops the listings' watchers. */
  close(): void {
    for (const l of this.listings.values()) l.close();
  }

  /** The report grouped `by`, brought up to date with the files: the same object while nothing changed. */
  async report(by: CostGrouping): Promise<CostReport> {
    await this.refresh();
    return this.totals.report(by);
  }

  /**
   * Every run's spending per model, finished runs and running ones, per agent
   * oldest session first. Built only when asked (`teamd web`'s chart): the
   * same array while nothing changed.
   */
  async spends(): Promise<Spend[]> {
    await this.refresh();
    if (this.flat?.version === this.totals.version) return this.flat.spends;
    const spends: Spend[] = [];
    const agents = new Set([...this.byAgent.keys(), ...this.folds.keys()]);
    for (const agent of [...agents].sort()) {
      const all = [...this.sessionsOf(agent), ...(this.folds.get(agent)?.sessions() ?? [])];
      for (const s of all.sort(byAge)) spends.push(...sessionSpends(s, this.prices));
    }
    this.flat = { version: this.totals.version, spends };
    return spends;
  }

  /** Sessions kept (for tests: bounded by the files listed). */
  get keptSessions(): number {
    let folded = 0;
    for (const f of this.folds.values()) folded += f.size;
    return this.sessions.size + folded;
  }

  /** Sessions kept as objects, not folded (tests: a settled history folds). */
  get objectSessions(): number {
    return this.sessions.size;
  }

  /** A watcher saw `path` (under `.team/state/transcripts/<agent>/`) change. */
  changed(path: string): void {
    const rel = relative(transcriptsRoot(this.repoRoot), path).split(sep);
    if (rel.length === 2 && rel[0] !== '..') this.listings.get(rel[0]!)?.hint(rel[1]!);
  }

  /** The mtime of the agent's newest transcript at the last refresh (its last model call or tool result). */
  newestWrite(agent: string): number | undefined {
    return this.newest.get(agent);
  }

  private sessionsOf(agent: string): SessionSpend[] {
    return [...(this.byAgent.get(agent) ?? [])].flatMap((f) => this.sessions.get(f) ?? []);
  }

  private async refresh(): Promise<void> {
    const agents = transcriptAgents(this.repoRoot);
    const listed = new Set(agents);
    for (const agent of new Set([...this.byAgent.keys(), ...this.folds.keys()])) if (!listed.has(agent)) this.dropAgent(agent);
    let read = 0;
    for (const agent of agents) {
      this.adopt(agent);
      const { changed, removed } = this.changesOf(agent);
      for (const file of removed) this.drop(agent, file);
      for (const stat of changed)
        if (this.update(agent, stat) && ++read % READ_BATCH === 0) {
          this.applyDelta();
          await yieldToLoop();
        }
      // Rows the summary had for files not listed: gone since (never counted, so nothing to take out).
      this.folds.get(agent)?.dropPending();
      if (removed.length) this.newest.delete(agent);
      this.noteNewest(agent, changed);
    }
    this.applyDelta();
    this.foldSettled();
    this.saveSummary();
  }

  /**
   * The spends read and dropped since the last call, into the totals as one
   * share each way (grouping ~100,000 restored sessions one at a time was a
   * tenth of a first refresh): what was added first, so no row goes below
   * nothing on the way.
   */
  private applyDelta(): void {
    const { add, remove } = this.delta;
    if (add.length) this.totals.add(sharesOf(add));
    if (remove.length) this.totals.add(sharesOf(remove), -1);
    this.delta = { add: [], remove: [] };
  }

  /** Settled sessions left alone for `FOLD_AFTER_MS` become rows of their agent's fold. */
  private foldSettled(): void {
    const now = (this.options.now ?? Date.now)();
    for (const [file, s] of this.sessions) {
      if (!settled(s) || now - s.mtime < FOLD_AFTER_MS || !this.foldOf(s.agent).fold(s)) continue;
      this.sessions.delete(file);
      this.byAgent.get(s.agent)?.delete(file);
    }
  }

  /** The summary's rows of the agent (pending until each file is seen), taken as the agent's fold: no copy of them is made. */
  private adopt(agent: string): void {
    if (this.folds.has(agent) || this.byAgent.get(agent)?.size) return;
    const fold = this.summary?.adopt(agent);
    if (fold) this.folds.set(agent, fold);
  }

  private foldOf(agent: string): FoldedSessions {
    let fold = this.folds.get(agent);
    if (!fold) this.folds.set(agent, (fold = new FoldedSessions(join(transcriptsRoot(this.repoRoot), agent), agent)));
    return fold;
  }

  /** Writes the summary when enough was read since (a 64th of the sessions: its cost is spread over the reads). */
  private saveSummary(): void {
    if (!this.summary) return;
    this.summary.release();
    if (this.unsaved === 0 || this.unsaved < this.keptSessions / 64) return;
    this.summary.save(this.sessions.values(), this.folds.values());
    this.unsaved = 0;
  }

  private noteNewest(agent: string, changed: readonly SessionFileStat[]): void {
    const known = this.newest.get(agent);
    const from: Iterable<{ mtime: number }> = known === undefined ? [...this.sessionsOf(agent), ...(this.folds.get(agent)?.stamps() ?? [])] : changed;
    let newest = known ?? -Infinity;
    for (const f of from) newest = Math.max(newest, f.mtime);
    if (newest > -Infinity) this.newest.set(agent, newest);
    else this.newest.delete(agent);
  }

  /** Takes the session's share out, reads it on, puts the new share in; false when it had not changed. */
  private update(agent: string, stat: SessionFileStat): boolean {
    const fold = this.folds.get(agent);
    if (fold?.matches(stat.file, stat.size, stat.mtime)) {
      // As the summary had it: counted now, once; else unchanged.
      if (!fold.confirm(stat.file)) return false;
      this.delta.add.push(...sessionSpends(fold.peek(stat.file)!, this.prices));
      return true;
    }
    const known = this.sessions.get(stat.file) ?? fold?.take(stat.file);
    if (known && known.size === stat.size && known.mtime === stat.mtime) return false;
    // The newest file dated back (utimes): the agent's newest is looked for again.
    if (known && stat.mtime < known.mtime && this.newest.get(agent) === known.mtime) this.newest.delete(agent);
    if (known) this.delta.remove.push(...sessionSpends(known, this.prices));
    const s = known ?? this.summary?.restore(stat) ?? newSessionSpend(stat.file);
    if (readSessionSpend(s, stat, this.prices)) {
      this.sessionsRead += 1;
      if (settled(s)) this.unsaved += 1;
    }
    this.delta.add.push(...sessionSpends(s, this.prices));
    this.sessions.set(stat.file, s);
    let files = this.byAgent.get(agent);
    if (!files) this.byAgent.set(agent, (files = new Set()));
    files.add(stat.file);
    return true;
  }

  private drop(agent: string, file: string): void {
    const s = this.sessions.get(file) ?? this.folds.get(agent)?.take(file);
    if (!s) return;
    this.delta.remove.push(...sessionSpends(s, this.prices));
    this.sessions.delete(file);
    this.byAgent.get(s.agent)?.delete(file);
  }

  private dropAgent(agent: string): void {
    for (const file of [...(this.byAgent.get(agent) ?? [])]) this.drop(agent, file);
    for (const { file } of [...(this.folds.get(agent)?.stamps() ?? [])]) this.drop(agent, file);
    this.folds.delete(agent);
    this.byAgent.delete(agent);
    this.newest.delete(agent);
    this.listings.get(agent)?.close();
    this.listings.delete(agent);
  }

  private changesOf(agent: string): ListingChanges {
    const sweepMs = this.options.sweepMs;
    if (sweepMs === undefined) return this.statAll(agent);
    let listing = this.listings.get(agent);
    if (!listing) this.listings.set(agent, (listing = new SessionListing(join(transcriptsRoot(this.repoRoot), agent), sweepMs)));
    if (!this.options.watch) return listing.changes(this.hinted);
    if (!listing.watching) listing.watch(() => this.onChange?.());
    return listing.changes(listing.watching);
  }

  /** Every file of the agent stat'ed: the ones whose stamp moved, and the ones gone. */
  private statAll(agent: string): ListingChanges {
    const dir = join(transcriptsRoot(this.repoRoot), agent);
    let names: string[] = [];
    try {
      names = sessionNames(readdirSync(dir));
    } catch {
      // the folder went away between the listing of agents and here: everything of it is gone
    }
    const out: ListingChanges = { changed: [], removed: [] };
    const seen = new Set<string>();
    const fold = this.folds.get(agent);
    for (const name of names) {
      const file = join(dir, name);
      const st = statSync(file, { throwIfNoEntry: false });
      if (!st) continue;
      seen.add(file);
      if (fold?.matches(file, st.size, st.mtimeMs) && !fold.isPending(file)) continue;
      const known = this.sessions.get(file);
      if (known?.size !== st.size || known.mtime !== st.mtimeMs) out.changed.push({ file, size: st.size, mtime: st.mtimeMs });
    }
    for (const file of this.byAgent.get(agent) ?? []) if (!seen.has(file)) out.removed.push(file);
    for (const { file } of fold?.stamps() ?? []) if (!seen.has(file)) out.removed.push(file);
    return out;
  }
}
