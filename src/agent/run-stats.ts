/**
 * What one run (one `submitMessage`) has spent and done, and the `result`
 * event built from it.
 */
import { UsageLedger, type PriceOverrides } from '../model/pricing.js';
import type { ModelError, Usage } from '../model/types.js';
import type { EventBody } from './events.js';
import type { PermissionDenial, ResultSubtype } from './types.js';

export class RunStats {
  private readonly startedAt = performance.now();
  private readonly ledger: UsageLedger;
  private apiMs = 0;
  turns = 0;
  readonly denials: PermissionDenial[] = [];

  constructor(prices: PriceOverrides = {}) {
    this.ledger = new UsageLedger(prices);
  }

  get costUsd(): number {
    return this.ledger.totalCostUsd;
  }

  addModelCall(model: string, usage: Usage, durationMs: number): void {
    this.turns += 1;
    this.apiMs += durationMs;
    this.ledger.add(model, usage);
  }

  /** A model call that is not a turn of the agent (a compaction's summary): it costs, but does not count. */
  addUsage(model: string, usage: Usage): void {
    this.ledger.add(model, usage);
  }

  result(subtype: ResultSubtype, text: string, error?: string, modelError?: ModelError): EventBody {
    return {
      type: 'result',
      subtype,
      is_error: subtype !== 'success',
      result: text,
      duration_ms: Math.round(performance.now() - this.startedAt),
      duration_api_ms: Math.round(this.apiMs),
      num_turns: this.turns,
      total_cost_usd: this.costUsd,
      usage: this.ledger.snapshot().usage,
      permission_denials: [...this.denials],
      ...(error === undefined ? {} : { error }),
      ...(modelError === undefined ? {} : { model_error: modelError }),
    };
  }
}
