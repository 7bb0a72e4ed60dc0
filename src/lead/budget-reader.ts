/**
 * The reader behind the lead's budget checks. It keeps running totals between
 * checks (changed by the sessions that changed), but never trusts
 * `.team/state/spend-summary.json`: that file is soft state any process in
 * the repository can write, and a summary saying a session spent nothing
 * (at the size and mtime it has) would let spend past a budget. So the
 * lead's first check after a start reads every transcript, as it always did.
 */
import type { PriceOverrides } from '../model/pricing.js';
import { TranscriptSpendReader } from '../observe/cost.js';

export const budgetReader = (repoRoot: string, prices: PriceOverrides): TranscriptSpendReader =>
  new TranscriptSpendReader(repoRoot, prices, { summary: false });
