/**
 * What a team's heaps keep as it works (issue 24 item 4: the diagnosis behind
 * the soak's RSS rows). A live team (4 teammates, scripted one-turn model, no
 * history) runs A tasks, then B, then C messages; after each part, heap
 * snapshots of one teammate's isolate (through the in-process inspector, no
 * hook in the teammate) and of the main thread go to files, and only once all
 * are taken (so the analysis is in none of them) it prints, per isolate and
 * part: the objects the later snapshot has that the earlier had not (V8 keeps
 * an object's id across snapshots), charged to the old object they hang from
 * with its retainer chain — where a growth is kept — and the net difference by
 * V8 node type and name. A bounded structure refilling (the board up to
 * `keepFinishedTasks`, the recent acks) shows new objects but no net growth;
 * a leak shows both.
 *
 *   node --expose-gc --import tsx bench/soak/heap-diff.ts [A] [B] [C]   (defaults 500 2500 5000; --src: from src/)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { makeBenchRepo, oneTurnScript, teammates } from '../support/team.js';
import { soakModules } from './modules.js';

const [A, B, C] = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
const [FIRST, SECOND, MESSAGES] = [A ?? 500, B ?? 2_500, C ?? 5_000];

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}
type Groups = Map<string, { count: number; bytes: number }>;

/** The snapshot's nodes grouped by "type: name" (names cut to 60 characters; strings grouped as one). */
function groups(s: Snapshot): Groups {
  const fields = s.snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const types = s.snapshot.meta.node_types[0];
  const out: Groups = new Map();
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + typeAt]!]!;
    const name = type === 'string' || type === 'concatenated string' || type === 'sliced string' ? '' : s.strings[s.nodes[i + nameAt]!]!.slice(0, 60);
    const key = `${type}: ${name}`;
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += s.nodes[i + sizeAt]!;
    out.set(key, g);
  }
  return out;
}

/**
 * The objects of `after` that `before` did not have (V8 keeps a node's id across snapshots), each charged to
 * the old object it hangs from (its retainers followed up to the first old one): "<old holder> .<edge>", with
 * the count and bytes of the new objects under it. Where a growth is kept.
 */
function newObjectHolders(title: string, before: Snapshot, after: Snapshot, top = 25): void {
  const nf = after.snapshot.meta.node_fields;
  const ef = after.snapshot.meta.edge_fields;
  const [idAt, typeAt, nameAt, sizeAt, edgesAt] = ['id', 'type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const [eTypeAt, eNameAt, eToAt] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const old = new Set<number>();
  for (let i = 0; i < before.nodes.length; i += nf.length) old.add(before.nodes[i + idAt!]!);
  const types = after.snapshot.meta.node_types[0];
  const edgeTypes = after.snapshot.meta.edge_types[0];
  const label = (i: number): string => `${types[after.nodes[i + typeAt!]!]}:${after.strings[after.nodes[i + nameAt!]!]!.slice(0, 40)}`;
  const isOld = (i: number): boolean => old.has(after.nodes[i + idAt!]!);
  // the first strong retainer of each node, and the edge's name
  const retainer = new Map<number, { from: number; edge: string }>();
  let edge = 0;
  for (let i = 0; i < after.nodes.length; i += nf.length) {
    for (let e = 0; e < after.nodes[i + edgesAt!]!; e++, edge += ef.length) {
      const to = after.edges[edge + eToAt!]!;
      const eType = edgeTypes[after.edges[edge + eTypeAt!]!];
      if (eType === 'weak' || eType === 'shortcut' || retainer.has(to)) continue;
      const name = eType === 'element' || eType === 'hidden' ? `[${eType}]` : String(after.strings[after.edges[edge + eNameAt!]!]);
      retainer.set(to, { from: i, edge: name });
    }
  }
  const held = new Map<string, { count: number; bytes: number; holder: number }>();
  for (let i = 0; i < after.nodes.length; i += nf.length) {
    if (isOld(i)) continue;
    let at = i;
    let via = '?';
    for (let hops = 0; hops < 50; hops++) {
      const r = retainer.get(at);
      if (!r) break;
      via = r.edge;
      at = r.from;
      if (isOld(at)) break;
    }
    const key = `${isOld(at) ? `${label(at)} @${after.nodes[at + idAt!]}` : '(new root)'} .${via}`;
    const g = held.get(key) ?? { count: 0, bytes: 0, holder: at };
    g.count++;
    g.bytes += after.nodes[i + sizeAt!]!;
    held.set(key, g);
  }
  /** Where a holder itself hangs: its retainers, a few hops up. */
  const chain = (at: number): string => {
    const hops: string[] = [];
    for (let n = 0; n < 8; n++) {
      const r = retainer.get(at);
      if (!r) break;
      hops.push(`${label(r.from)}.${r.edge}`);
      at = r.from;
    }
    return hops.join(' ← ');
  };
  console.log(`\n## ${title}: new objects, by the old object they hang from`);
  for (const [k, g] of [...held].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top))
    console.log(`${(g.bytes / 1024).toFixed(1).padStart(9)} kB ${String(g.count).padStart(8)}  ${k}${g.bytes > 20 * 1024 && !k.startsWith('closure') ? `\n              held by ${chain(g.holder)}` : ''}`);
}

function printDiff(title: string, before: Groups, after: Groups, top = 25): void {
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((k) => {
    const b = before.get(k) ?? { count: 0, bytes: 0 };
    const a = after.get(k) ?? { count: 0, bytes: 0 };
    return { k, dc: a.count - b.count, db: a.bytes - b.bytes, a };
  });
  const total = rows.reduce((s, r) => s + r.db, 0);
  console.log(`\n## ${title}: ${(total / 1024).toFixed(0)} kB net`);
  for (const r of rows.sort((x, y) => y.db - x.db).slice(0, top))
    console.log(`${(r.db / 1024).toFixed(1).padStart(9)} kB ${String(r.dc).padStart(8)} objs  (now ${(r.a.bytes / 1024).toFixed(0)} kB)  ${r.k}`);
}

/** The inspector: this thread's heap, and one worker's through the NodeWorker domain. */
class Heaps {
  private readonly session = new Session();
  private worker: string | undefined;
  private readonly byThread = new Map<number, string>();
  private chunks: string[] = [];
  private waiting: ((r: unknown) => void) | undefined;
  private nextId = 0;

  async open(): Promise<void> {
    this.session.connect();
    this.session.on('NodeWorker.attachedToWorker', ({ params }: { params: { sessionId: string; workerInfo: { title: string } } }) => {
      this.byThread.set(Number(/^\[worker (\d+)\]/.exec(params.workerInfo.title)?.[1]), params.sessionId);
    });
    this.session.on('NodeWorker.receivedMessageFromWorker', ({ params }: { params: { message: string } }) => {
      const m = JSON.parse(params.message) as { id?: number; method?: string; params?: { chunk: string } };
      if (m.method === 'HeapProfiler.addHeapSnapshotChunk') this.chunks.push(m.params!.chunk);
      else if (m.id !== undefined) this.waiting?.(m);
    });
    await this.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  }

  /** The worker to snapshot: a teammate's thread (not, say, tsx's loader). */
  choose(threadId: number): void {
    this.worker = this.byThread.get(threadId);
  }

  async ofWorker(): Promise<string> {
    if (!this.worker) throw new Error('no teammate worker attached');
    await this.inWorker('HeapProfiler.collectGarbage');
    this.chunks = [];
    await this.inWorker('HeapProfiler.takeHeapSnapshot');
    const text = this.chunks.join('');
    this.chunks = [];
    return text;
  }

  async ofMain(): Promise<string> {
    const chunks: string[] = [];
    const take = ({ params }: { params: { chunk: string } }): number => chunks.push(params.chunk);
    this.session.on('HeapProfiler.addHeapSnapshotChunk', take);
    await this.post('HeapProfiler.collectGarbage', {});
    await this.post('HeapProfiler.takeHeapSnapshot', {});
    this.session.off('HeapProfiler.addHeapSnapshotChunk', take);
    return chunks.join('');
  }

  private inWorker(method: string): Promise<unknown> {
    const id = ++this.nextId;
    const answered = new Promise((r) => (this.waiting = r));
    void this.post('NodeWorker.sendMessageToWorker', { sessionId: this.worker!, message: JSON.stringify({ id, method, params: {} }) });
    return answered;
  }

  private post(method: string, params: object): Promise<unknown> {
    return new Promise((resolve, reject) => this.session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  }
}

const m = await soakModules();
const repo = await makeBenchRepo(oneTurnScript(), { teammates: teammates(4) });
const heaps = new Heaps();
await heaps.open();
let completed = 0;
let delivered = 0;
const started = await m.Lead.start({
  repoRoot: repo.dir,
  onEvent: (e) => {
    if (e.type === 'task_completed') completed++;
    if (e.type === 'message_delivered') delivered++;
  },
});
if (!started.ok) throw new Error(started.error);
const lead = started.value;
const until = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((r) => setTimeout(r, 50));
};
const idle = (): boolean => lead.pool.names().every((n) => lead.pool.stateOf(n)?.state === 'idle');
async function runTasks(from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    const made = await lead.tasks.create({ id: `live${i}`, subject: `live task ${i}` });
    if (!made.ok) throw new Error(made.error);
    if (i % 200 === 199) await until(() => completed >= i - 400);
  }
  await until(() => completed >= to && idle());
}
await until(idle);
heaps.choose((lead.pool.channelOf(lead.pool.names()[0]!) as unknown as { threadId: number }).threadId);
await runTasks(0, FIRST);
const saved: string[] = [];
const save = async (name: string, take: Promise<string>): Promise<void> => {
  const file = join(repo.dir, `${name}.heapsnapshot`);
  await writeFile(file, await take);
  saved.push(file);
};
await save('w1', heaps.ofWorker());
await save('m1', heaps.ofMain());
await runTasks(FIRST, SECOND);
await save('w2', heaps.ofWorker());
await save('m2', heaps.ofMain());
const mailbox = new m.MailboxStore(repo.dir);
const names = lead.pool.names();
for (let i = 0; i < MESSAGES; i++) {
  const sent = await mailbox.send({ from: 'lead', to: names[i % names.length]!, type: 'message', content: `soak ${i}` });
  if (!sent.ok) throw new Error(sent.error);
  if (i % 500 === 499) await until(() => delivered >= i - 1000);
}
await until(() => delivered >= MESSAGES && idle());
await save('w3', heaps.ofWorker());
await save('m3', heaps.ofMain());
await lead.stop();
// The analysis after every snapshot is taken, so what it holds is in none of them.
const read = async (name: string): Promise<Snapshot> => JSON.parse(await readFile(join(repo.dir, `${name}.heapsnapshot`), 'utf8')) as Snapshot;
const [w1, w2, w3, m1, m2, m3] = await Promise.all(['w1', 'w2', 'w3', 'm1', 'm2', 'm3'].map(read));
newObjectHolders(`a teammate, ${FIRST} → ${SECOND} tasks`, w1!, w2!);
newObjectHolders(`a teammate, then ${MESSAGES} messages`, w2!, w3!);
newObjectHolders(`the main thread, ${FIRST} → ${SECOND} tasks`, m1!, m2!);
newObjectHolders(`the main thread, then ${MESSAGES} messages`, m2!, m3!);
printDiff(`a teammate's heap, ${FIRST} → ${SECOND} tasks`, groups(w1!), groups(w2!));
printDiff(`a teammate's heap, then ${MESSAGES} messages`, groups(w2!), groups(w3!));
printDiff(`the main thread, ${FIRST} → ${SECOND} tasks`, groups(m1!), groups(m2!));
printDiff(`the main thread, then ${MESSAGES} messages`, groups(m2!), groups(m3!));
console.log(`\nsnapshots: ${saved.join(' ')}`);

process.exit(0);
