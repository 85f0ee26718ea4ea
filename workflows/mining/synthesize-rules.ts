import type { CorrectionRule } from '../../core/knowledge/knowledge-types';
import type { ErrorGroup } from '../../core/mining/mining-types';
import type { MiningJob } from './mining-job';

/**
 * Step 4 of the rule creator (§3.1.4): one rule per dominant error group, then the rule set
 * published as a new version where the online correction reads it. Null when the budget ran
 * out before every rule was written. A job that found no dominant group leaves the published
 * rules as they are (an empty set would erase them).
 */
export async function synthesizeRules(job: MiningJob, dominant: ErrorGroup[]): Promise<{ rules: CorrectionRule[]; version?: string } | null> {
  const { input, runner } = job;
  const { llm, offline } = job.activities;
  const written = await Promise.all(
    dominant.map((group, i) =>
      runner.paidStep(
        { stage: 'synthesis', name: 'synthesizeRule', summary: `rule from "${group.label}" (${group.members.length} failures)`, llmCalls: 1 },
        (o) => llm.synthesizeRule.executeWithOptions(o, [{ jobId: input.jobId, ruleId: `mined-${i + 1}`, group, shown: input.clustering.explanationsPerRule }]),
        (r) => ({ outcome: r.rule.gist }),
      ),
    ),
  );
  if (written.some((w) => w === null)) return null;
  const rules = written.map((w) => w!.rule);
  if (!rules.length) {
    runner.note('synthesis', 'publishMinedRules', 'no dominant error group', { skipped: 'no rule to publish; the stored rules are unchanged' });
    return { rules };
  }
  const published = await runner.step(
    { stage: 'synthesis', name: 'publishMinedRules', summary: `publish ${rules.length} rules for the online correction` },
    (o) => offline.publishMinedRules.executeWithOptions(o, [{ jobId: input.jobId, rules }]),
  );
  return { rules, version: published.version };
}
