import type { EndpointConfig, TeamConfig, TeammateConfig } from '../config/schema.js';
import { createModelClient, ScriptedModel, type ScriptReport } from '../model/index.js';
import type { ModelClient, ModelError, ModelRequest, ModelStreamEvent } from '../model/types.js';
import { ModelHost } from './model-host.js';

/** The model a teammate runs: its own, else the team's (a `--model` override replaces both). */
export const modelOf = (team: TeamConfig, t: TeammateConfig, override?: string): string =>
  override ?? t.model ?? team.model;

/** A model and the endpoint it is called on (a bare spec: the team's endpoint). */
export type ModelUse = string | { spec: string; endpoint?: EndpointConfig | undefined };

/** A teammate's model on its endpoint: its own, else the team's. */
export const modelUseOf = (team: TeamConfig, t: TeammateConfig, override?: string): ModelUse => ({
  spec: modelOf(team, t, override),
  endpoint: t.endpoint ?? team.endpoint,
});

/** The lead's own agents' model on their endpoint. */
export const leadModelUse = (team: TeamConfig, override?: string): ModelUse => ({
  spec: override ?? team.lead.model ?? team.model,
  endpoint: team.lead.endpoint ?? team.endpoint,
});

const specOf = (use: ModelUse): string => (typeof use === 'string' ? use : use.spec);
const endpointOfUse = (use: ModelUse): EndpointConfig | undefined =>
  typeof use === 'string' ? undefined : use.endpoint;
/** One client per model *and* endpoint: the same model name on two servers is two clients. */
const keyOf = (use: ModelUse): string => {
  const endpoint = endpointOfUse(use);
  return endpoint === undefined ? specOf(use) : `${specOf(use)} ${JSON.stringify(endpoint)}`;
};

/**
 * The models the lead holds: every teammate's model calls are served here
 * over IPC. A scripted model is one script for the whole team; a real model
 * is one SDK client per model for the whole team (one connection pool, one
 * place where retries and fallbacks happen), and a teammate's thread never
 * loads the SDK — it stays small (see bench/memory).
 */
export class LeadModels {
  private readonly clients = new Map<string, { spec: string; client: ModelClient }>();
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
  async prepare(uses: ModelUse[]): Promise<void> {
    for (const use of uses) {
      const key = keyOf(use);
      if (this.clients.has(key)) continue;
      const spec = specOf(use);
      const endpoint = endpointOfUse(use);
      const client = await createModelClient(spec, {
        cwd: this.opts.repoRoot,
        fallbackModel: this.opts.team.fallbackModel,
        prices: this.opts.team.prices,
        record: this.opts.record,
        retry: this.opts.team.retry,
        ...(endpoint ? { endpoint } : {}),
      });
      this.clients.set(key, { spec, client });
    }
  }

  client(use: ModelUse): ModelClient {
    const c = this.clients.get(keyOf(use));
    if (!c) throw new Error(`model ${keyOf(use)} was not prepared`);
    return c.client;
  }

  /**
   * The client for the lead's own agents (goal planning, mail, reviews): their
   * calls' outcomes are reported as the teammates' are (a refused key pauses the team).
   */
  leadClient(use: ModelUse): ModelClient {
    return reportingClient(this.client(use), this.opts.onCallEnd);
  }

  /** The host serving a scripted spec (or any spec, when recording must see every call). */
  host(use: ModelUse): ModelHost {
    const key = keyOf(use);
    let h = this.hosts.get(key);
    if (!h) {
      h = new ModelHost(this.client(use), this.opts.onCallEnd);
      this.hosts.set(key, h);
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
    for (const { spec, client } of this.clients.values())
      if (client instanceof ScriptedModel) out.push({ spec, report: client.report() });
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
