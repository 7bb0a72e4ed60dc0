import type { TeamConfig, TeammateConfig } from '../config/schema.js';
import { createModelClient, ScriptedModel, type ScriptReport } from '../model/index.js';
import type { ModelClient, ModelError, ModelRequest, ModelStreamEvent } from '../model/types.js';
import { ModelHost } from './model-host.js';

/** The model a teammate runs: its own, else the team's (a `--model` override replaces both). */
export const modelOf = (team: TeamConfig, t: TeammateConfig, override?: string): string =>
  override ?? t.model ?? team.model;

/**
 * The models the lead holds: every teammate's model calls are served here
 * over IPC. A scripted model is one script for the whole team; a real model
 * is one SDK client per model for the whole team (one connection pool, one
 * place where retries and fallbacks happen), and a teammate's thread never
 * loads the SDK — it stays small (see bench/memory).
 */
export class LeadModels {
  private readonly clients = new Map<string, ModelClient>();
  private readonly hosts = new Map<string, ModelHost>();

  constructor(
    private readonly opts: {
      repoRoot: string;
      team: TeamConfig;
      record?: string;
      onCallEnd?: (error: ModelError | undefined) => void;
    },
  ) {}

  /** Builds the clients the lead will serve (a bad script file fails here, naming the file). */
  async prepare(specs: string[]): Promise<void> {
    for (const spec of new Set(specs)) {
      if (this.clients.has(spec)) continue;
      const client = await createModelClient(spec, {
        cwd: this.opts.repoRoot,
        fallbackModel: this.opts.team.fallbackModel,
        prices: this.opts.team.prices,
        record: this.opts.record,
      });
      this.clients.set(spec, client);
    }
  }

  client(spec: string): ModelClient {
    const c = this.clients.get(spec);
    if (!c) throw new Error(`model ${spec} was not prepared`);
    return c;
  }

  /**
   * The client for the lead's own agents (goal planning, mail, reviews): their
   * calls' outcomes are reported as the teammates' are (a refused key pauses the team).
   */
  leadClient(spec: string): ModelClient {
    return reportingClient(this.client(spec), this.opts.onCallEnd);
  }

  /** The host serving a scripted spec (or any spec, when recording must see every call). */
  host(spec: string): ModelHost {
    let h = this.hosts.get(spec);
    if (!h) {
      h = new ModelHost(this.client(spec), this.opts.onCallEnd);
      this.hosts.set(spec, h);
    }
    return h;
  }

  /** Whether teammates on `spec` call the model through the lead: always (see the class comment). */
  viaLead(_spec: string): boolean {
    return true;
  }

  /** A teammate's worker died: its calls in flight would stream to no one (and cost tokens). */
  abortCallsOf(teammate: string): void {
    for (const h of this.hosts.values()) h.abortOwner(teammate);
  }

  /** Scripted models: unused steps and rules (a strict script must be used up). */
  scriptReports(): { spec: string; report: ScriptReport }[] {
    const out: { spec: string; report: ScriptReport }[] = [];
    for (const [spec, c] of this.clients)
      if (c instanceof ScriptedModel) out.push({ spec, report: c.report() });
    return out;
  }

  abortAll(): void {
    for (const h of this.hosts.values()) h.abortAll();
  }
}

/** `inner`, telling `onEnd` how each call ended (not when it was aborted), as ModelHost does. */
function reportingClient(inner: ModelClient, onEnd?: (error: ModelError | undefined) => void): ModelClient {
  return {
    model: inner.model,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      for await (const event of inner.stream(request)) {
        if (event.type === 'done' && !request.signal?.aborted) onEnd?.(event.error);
        yield event;
      }
    },
  };
}
