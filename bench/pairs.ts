/**
 * Ratios that hold on a noisy machine: a scenario and its baseline (L0, bare
 * node:http answering the same body) run in turn, L0 then the scenario, a few
 * short times each, every pair on the same request sequence. Noise that comes
 * and goes over minutes hits both halves of a pair alike; the ratio reported
 * is the median of the pairs' ratios, with their spread, and a scenario whose
 * pairs disagree by more than 15 % is flagged.
 */
import type { LoadResult } from './load.ts';

export const DISAGREEMENT_LIMIT = 0.15;

export interface Pair {
  baseline: LoadResult;
  scenario: LoadResult;
  /** scenario req/s ÷ baseline req/s. */
  ratio: number;
}

export interface PairSummary {
  pairs: number;
  /** Medians over the pairs. */
  requestsPerSecond: number;
  baselineRequestsPerSecond: number;
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  /** (max − min) ÷ median of the pairs' ratios. */
  disagreement: number;
  /** The pairs disagree by more than DISAGREEMENT_LIMIT: re-run before trusting this ratio. */
  noisy: boolean;
  p50: number;
  p99: number;
  /** Median over the pairs of each run's own p99 ÷ p50. */
  p99OverP50: number;
  baselineP50: number;
  baselineP99: number;
  /** The same for L0 in the same pairs: the tail the machine and the load generator give bare http. */
  baselineP99OverP50: number;
  serverRssMaxMb: number;
  serverAnonMaxMb: number;
  serverCpu: number;
  clientCpu: number;
  baselineServerCpu: number;
  baselineClientCpu: number;
  meanResponseBytes: number;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function runPairs(
  count: number,
  baseline: (seed: number) => Promise<LoadResult>,
  scenario: (seed: number) => Promise<LoadResult>,
): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    // Each pair its own sequence; within a pair, the same one for both.
    const seed = i + 1;
    const b = await baseline(seed);
    const s = await scenario(seed);
    pairs.push({ baseline: b, scenario: s, ratio: b.requestsPerSecond > 0 ? s.requestsPerSecond / b.requestsPerSecond : 0 });
  }
  return pairs;
}

export interface RatioSpread {
  /** The median of the pairs' ratios. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  /** (max − min) ÷ median. */
  disagreement: number;
  /** disagreement above DISAGREEMENT_LIMIT. */
  noisy: boolean;
}

/** The median of some pairs' ratios, their range, and whether they disagree too much to trust. */
export function ratioSpread(ratios: number[]): RatioSpread {
  const ratio = median(ratios);
  const ratioMin = Math.min(...ratios);
  const ratioMax = Math.max(...ratios);
  const disagreement = ratio > 0 ? (ratioMax - ratioMin) / ratio : 0;
  return { ratio, ratioMin, ratioMax, disagreement, noisy: disagreement > DISAGREEMENT_LIMIT };
}

export function summarise(pairs: Pair[]): PairSummary {
  const of = (pick: (p: Pair) => number) => median(pairs.map(pick));
  return {
    pairs: pairs.length,
    requestsPerSecond: of((p) => p.scenario.requestsPerSecond),
    baselineRequestsPerSecond: of((p) => p.baseline.requestsPerSecond),
    ...ratioSpread(pairs.map((p) => p.ratio)),
    p50: of((p) => p.scenario.p50),
    p99: of((p) => p.scenario.p99),
    p99OverP50: of((p) => p.scenario.p99 / (p.scenario.p50 || 1)),
    baselineP50: of((p) => p.baseline.p50),
    baselineP99: of((p) => p.baseline.p99),
    baselineP99OverP50: of((p) => p.baseline.p99 / (p.baseline.p50 || 1)),
    serverRssMaxMb: Math.max(...pairs.map((p) => p.scenario.serverRssMaxMb)),
    serverAnonMaxMb: Math.max(...pairs.map((p) => p.scenario.serverAnonMaxMb)),
    serverCpu: of((p) => p.scenario.serverCpu),
    clientCpu: of((p) => p.scenario.clientCpu),
    baselineServerCpu: of((p) => p.baseline.serverCpu),
    baselineClientCpu: of((p) => p.baseline.clientCpu),
    meanResponseBytes: of((p) => p.scenario.meanResponseBytes),
  };
}
