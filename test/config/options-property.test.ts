/**
 * Every public entry that takes options, given generated wrong ones: a few
 * fields with wrong values (and sometimes a misspelt extra key). Each must
 * throw an `OptionsError` (never start anything, never fail later with a
 * TypeError from deep inside) whose problems name every wrong field and, for
 * a field with a fixed set of values, list all of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { OptionsError } from '../../src/config/options.js';
import { createModelClient } from '../../src/model/factory.js';
import { FAULT_KINDS } from '../../src/model/fake-server/options.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore, MemoryMailbox } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { Team } from '../../src/team-api/index.js';
import { genericTaskScript, makeTeamRepo, type TeamRepo } from '../e2e/support/harness.js';

type Options = Record<string, unknown>;

interface Entry {
  owner: string;
  call: (options: Options) => unknown;
  /** What a valid call needs. */
  base: Options;
  /** Field (dotted for a nested one) → wrong values for it. */
  wrong: Record<string, fc.Arbitrary<unknown>>;
  /** Fields with a fixed set of values: every value must be in the error. */
  allowed?: Record<string, readonly string[]>;
}

const notFunction = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.object());
const notBoolean = fc.oneof(fc.string(), fc.integer(), fc.constant(null));
const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer()));
const notPositiveInt = fc.oneof(fc.integer({ max: 0 }), fc.double({ min: 0.01, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)), fc.string(), fc.constant(null));
const notNonNegativeInt = fc.oneof(fc.integer({ max: -1 }), fc.constant(1.5), fc.string(), fc.constant(null));
const notPositive = fc.oneof(fc.double({ max: 0, noNaN: true }), fc.string(), fc.constant(null));
const emptyOr = (other: fc.Arbitrary<unknown>) => fc.oneof(fc.constant(''), other);
const outside = (values: readonly string[]) => fc.oneof(fc.string().filter((s) => !values.includes(s)), fc.integer());
const MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk'];
const REVIEW = ['auto', 'human', 'agent'];
const lockWrong = { 'lock.staleMs': notPositive, 'lock.retries': notNonNegativeInt, 'lock.onCompromised': notFunction };
const model = () => new ScriptedModel({ steps: [] });

let dir = '';
let repo: TeamRepo;
let team: Team;
let server: FakeAnthropicServer;

function entries(): Entry[] {
  return [
    {
      owner: 'AgentRuntime options',
      call: (o) => new AgentRuntime(o as never),
      base: { model: model(), cwd: dir },
      wrong: { maxTurns: notPositiveInt, maxBudgetUsd: notPositive, cwd: emptyOr(notString), 'permissionPolicy.defaultMode': outside(MODES), onEvent: notFunction, systemPrompt: notString, 'mcp.connectTimeoutMs': notPositiveInt, 'subagents.maxTurns': notPositiveInt },
      allowed: { 'permissionPolicy.defaultMode': MODES },
    },
    {
      owner: 'createModelClient options',
      call: (o) => createModelClient('claude-sonnet-4-5', o),
      base: {},
      wrong: { recordMode: outside(['match', 'ordered']), maxTokens: notPositiveInt, baseURL: fc.constantFrom('', 'not a url', 42), 'retry.maxRetries': notNonNegativeInt, apiKey: notString, cwd: emptyOr(notString) },
      allowed: { recordMode: ['match', 'ordered'] },
    },
    {
      owner: 'Team.open options',
      call: (o) => Team.open(dir, o),
      base: {},
      wrong: { model: emptyOr(notString), teammates: notNonNegativeInt, idleRecheckMs: notPositiveInt, 'config.review': outside(REVIEW), onEvent: notFunction, record: emptyOr(notString) },
      allowed: { 'config.review': REVIEW },
    },
    {
      owner: 'createTeammate config',
      call: (o) => team.createTeammate(o as never),
      base: { name: 'zed' },
      wrong: { maxTurns: notPositiveInt, planMode: notBoolean, autoApproveShutdown: notBoolean, 'permissions.defaultMode': outside(MODES), role: notString },
      allowed: { 'permissions.defaultMode': MODES },
    },
    { owner: 'TaskStore.inMemory options', call: (o) => TaskStore.inMemory(o), base: {}, wrong: { normalise: notBoolean, now: notFunction, trackOwnWrites: notBoolean, ...lockWrong } },
    { owner: 'TaskStore.open options', call: (o) => TaskStore.open(dir, o), base: {}, wrong: { normalise: notBoolean, now: notFunction, ...lockWrong } },
    { owner: 'MailboxStore options', call: (o) => new MailboxStore(dir, o), base: {}, wrong: { roster: fc.oneof(fc.string(), fc.constant([''])), now: notFunction, summaryCache: emptyOr(notString), ...lockWrong } },
    { owner: 'MemoryMailbox options', call: (o) => new MemoryMailbox(o), base: {}, wrong: { roster: fc.oneof(fc.integer(), fc.constant([3])), now: notFunction } },
    { owner: 'CronStore options', call: (o) => new CronStore(dir, o), base: {}, wrong: { roster: fc.oneof(fc.string(), fc.constant([''])), now: notFunction, ...lockWrong } },
    { owner: 'CronStore.inMemory options', call: (o) => CronStore.inMemory(o), base: {}, wrong: { roster: fc.integer(), now: notFunction } },
    {
      owner: 'ScriptedModel script',
      call: (o) => new ScriptedModel(o),
      base: {},
      wrong: { steps: fc.oneof(fc.string(), fc.integer()), rules: fc.oneof(fc.string(), fc.integer()), description: notString, 'steps.0.content': fc.oneof(fc.string(), fc.integer()) },
    },
    {
      owner: 'ScriptedModel options',
      call: (o) => new ScriptedModel({ steps: [] }, o),
      base: {},
      wrong: { model: emptyOr(notString), source: emptyOr(notString), checkTools: notBoolean, promptCache: notBoolean },
    },
    {
      owner: 'startFakeAnthropicServer options',
      call: (o) => startFakeAnthropicServer(o),
      base: {},
      wrong: { apiKey: emptyOr(notString), compatible: notBoolean, script: fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer())), 'faults.0.kind': outside(FAULT_KINDS) },
      allowed: { 'faults.0.kind': FAULT_KINDS },
    },
    {
      owner: 'inject(fault)',
      call: (o) => server.inject(o.faults as never),
      base: { faults: [{ kind: 'overloaded' }] },
      wrong: { 'faults.0.kind': outside(FAULT_KINDS), 'faults.0.match': fc.oneof(fc.string(), fc.integer()), 'faults.0.match.agent': notString },
      allowed: { 'faults.0.kind': FAULT_KINDS },
    },
  ];
}

/** `{...base}` with `value` at the dotted `path` (arrays for numeric segments). */
function setAt(target: Options, path: string, value: unknown): void {
  const keys = path.split('.');
  let at: Record<string, unknown> = target;
  keys.slice(0, -1).forEach((key, i) => {
    const next = keys[i + 1]!;
    const existing = at[key];
    at[key] = typeof existing === 'object' && existing !== null ? structuredClone(existing) : /^\d+$/.test(next) ? [] : {};
    at = at[key] as Record<string, unknown>;
  });
  at[keys.at(-1)!] = value;
}

async function refusal(entry: Entry, options: Options): Promise<OptionsError> {
  let outcome: unknown;
  try {
    outcome = await entry.call(options);
  } catch (err) {
    if (err instanceof OptionsError) return err;
    throw new Error(`${entry.owner} threw ${String(err)} instead of an OptionsError for ${JSON.stringify(options)}`);
  }
  if (outcome && typeof (outcome as { close?: unknown }).close === 'function') await (outcome as { close(): Promise<void> }).close();
  throw new Error(`${entry.owner} accepted ${JSON.stringify(options)}`);
}

/** The problem about `field` (`inject`'s faults are its argument itself: `0.kind`). */
function problemAbout(err: OptionsError, owner: string, field: string): string | undefined {
  const named = owner === 'inject(fault)' ? field.replace(/^faults\./, '') : field;
  return err.problems.find((p) => p.startsWith(`${named}: `) || p.startsWith(`${named}.`));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-options-'));
  repo = makeTeamRepo({ script: genericTaskScript(), config: { teammates: [], worktrees: { mode: 'off' } } });
  team = await Team.open(repo.dir, { idleRecheckMs: 60_000 });
  server = await startFakeAnthropicServer();
}, 60_000);

afterAll(async () => {
  await team?.close();
  await server?.close();
  repo?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('generated wrong options on every public entry', () => {
  test.each(entries().map((e) => [e.owner, e] as const))('%s: named, with the allowed values', async (_owner, template) => {
    const entry = entries().find((e) => e.owner === template.owner)!; // built after beforeAll
    const fields = Object.keys(entry.wrong);
    const wrongs = fc.uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: 3 }).chain((chosen) =>
      fc.tuple(fc.constant(chosen), fc.tuple(...chosen.map((f) => entry.wrong[f]!)), fc.option(fc.constantFrom('verbose', 'timeOut', 'maxTurn'), { nil: undefined })),
    );
    await fc.assert(
      fc.asyncProperty(wrongs, async ([chosen, values, extra]) => {
        const options = structuredClone(entry.base);
        chosen.forEach((field, i) => setAt(options, field, values[i]));
        if (extra && entry.owner !== 'inject(fault)') options[extra] = 1;
        const err = await refusal(entry, options);
        expect(err.message.startsWith(`${entry.owner}: `), err.message).toBe(true);
        // A wrong nested field may hide its deeper siblings (`steps: 'x'` has no `steps.0`): the outermost one is named.
        const named = chosen.filter((f) => !chosen.some((g) => g !== f && f.startsWith(`${g}.`)));
        for (const field of named) {
          const problem = problemAbout(err, entry.owner, field);
          expect(problem, `${field} in ${err.message}`).toBeDefined();
          for (const value of entry.allowed?.[field] ?? []) expect(problem).toContain(JSON.stringify(value));
        }
        if (extra && entry.owner !== 'inject(fault)') expect(err.problems).toContain(`${extra}: unknown option`);
      }),
      { numRuns: 40 },
    );
  });
});
