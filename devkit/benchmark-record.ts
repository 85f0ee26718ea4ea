import type { BenchmarkRecord } from '../core/benchmark/benchmark-types';
import type { Verdict } from '../core/evaluation/verdict';
import { emptyUsage } from '../core/usage';

/** A benchmark record of one answered question for report tests: `SELECT 1` both ways, the rest as given. */
export function benchmarkRecord(index: number, verdict: Verdict, over: Partial<BenchmarkRecord> = {}): BenchmarkRecord {
  return {
    index,
    id: `q${index}`,
    dbId: 'db',
    question: `question ${index}`,
    goldSql: 'SELECT 1',
    predictedSql: 'SELECT 1',
    outcome: 'answered',
    route: 'direct',
    verdict,
    usage: emptyUsage(),
    latencyMs: 1000 * (index + 1),
    upperBoundCorrect: verdict === 'correct',
    candidatesEvaluated: 1,
    ...over,
  };
}
