/**
 * The public options types are the zod schemas' types (`z.input` of each
 * schema), not hand-written twins that could drift: checked by the type
 * checker (`expectTypeOf`), and by a scan that no such interface is declared.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import { AgentRuntimeOptionsSchema, type AgentRuntimeOptions } from '../../src/agent/options.js';
import { ModelClientOptionsSchema, type ModelClientOptions } from '../../src/model/factory.js';
import { FakeServerOptionsSchema, FaultMatchSchema, FaultSchema } from '../../src/model/fake-server/options.js';
import type { FakeServerOptions, Fault, FaultMatch } from '../../src/model/fake-server/types.js';
import { ScriptedModelOptionsSchema, type ScriptedModelOptions } from '../../src/model/scripted/scripted-model.js';
import { ScriptSchema, type ScriptInput } from '../../src/model/scripted/schema.js';
import { CronStoreOptionsSchema, type CronStoreOptions } from '../../src/store/cron/types.js';
import type { LockOptions } from '../../src/store/lock.js';
import { MailboxStoreOptionsSchema, MemoryMailboxOptionsSchema, type MailboxStoreOptions, type MemoryMailboxOptions } from '../../src/store/mailbox/types.js';
import { LockOptionsSchema } from '../../src/store/options.js';
import { TaskStoreOptionsSchema, type TaskStoreOptions } from '../../src/store/tasks/types.js';
import { TeamOpenOptionsSchema, TeammateOptionsSchema, type TeamOpenOptions, type TeammateOptions } from '../../src/team-api/types.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('options types come from their schemas', () => {
  test('each public options type is z.input of its schema', () => {
    expectTypeOf<AgentRuntimeOptions>().toEqualTypeOf<z.input<typeof AgentRuntimeOptionsSchema>>();
    expectTypeOf<ModelClientOptions>().toEqualTypeOf<z.input<typeof ModelClientOptionsSchema>>();
    expectTypeOf<TeamOpenOptions>().toEqualTypeOf<z.input<typeof TeamOpenOptionsSchema>>();
    expectTypeOf<TeammateOptions>().toEqualTypeOf<z.input<typeof TeammateOptionsSchema>>();
    expectTypeOf<TaskStoreOptions>().toEqualTypeOf<z.input<typeof TaskStoreOptionsSchema>>();
    expectTypeOf<MailboxStoreOptions>().toEqualTypeOf<z.input<typeof MailboxStoreOptionsSchema>>();
    expectTypeOf<MemoryMailboxOptions>().toEqualTypeOf<z.input<typeof MemoryMailboxOptionsSchema>>();
    expectTypeOf<CronStoreOptions>().toEqualTypeOf<z.input<typeof CronStoreOptionsSchema>>();
    expectTypeOf<LockOptions>().toEqualTypeOf<z.input<typeof LockOptionsSchema>>();
    expectTypeOf<FakeServerOptions>().toEqualTypeOf<z.input<typeof FakeServerOptionsSchema>>();
    expectTypeOf<Fault>().toEqualTypeOf<z.output<typeof FaultSchema>>();
    expectTypeOf<FaultMatch>().toEqualTypeOf<z.output<typeof FaultMatchSchema>>();
    expectTypeOf<ScriptedModelOptions>().toEqualTypeOf<z.input<typeof ScriptedModelOptionsSchema>>();
    expectTypeOf<ScriptInput>().toEqualTypeOf<z.input<typeof ScriptSchema>>();
  });

  test.each([
    ['src/agent/options.ts', 'AgentRuntimeOptions'],
    ['src/model/factory.ts', 'ModelClientOptions'],
    ['src/team-api/types.ts', 'TeamOpenOptions|TeammateOptions'],
    ['src/store/tasks/types.ts', 'TaskStoreOptions'],
    ['src/store/mailbox/types.ts', 'MailboxStoreOptions|MemoryMailboxOptions'],
    ['src/store/cron/types.ts', 'CronStoreOptions'],
    ['src/store/lock.ts', 'LockOptions'],
    ['src/model/fake-server/types.ts', 'FakeServerOptions|Fault|FaultMatch'],
    ['src/model/scripted/scripted-model.ts', 'ScriptedModelOptions'],
  ])('%s declares no hand-written %s', (file, names) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    expect(source).not.toMatch(new RegExp(`^export (interface|type) (${names}) (\\{|= \\{)`, 'm'));
  });
});
