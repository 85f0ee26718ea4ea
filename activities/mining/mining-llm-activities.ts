import { dialectName } from '../../core/database/schema-types';
import type { CorrectionRule } from '../../core/knowledge/knowledge-types';
import type { CandidateMismatch, ErrorGroup } from '../../core/mining/mining-types';
import type { BenchmarkQuestion } from '../../core/datasets/benchmark-question';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { anonymizeQueries } from '../../core/mining/anonymize-sql';
import { askModel } from '../prompts/ask-model';
import { keepAlive } from '../heartbeat/activity-heartbeat';
import { loadSchema, renderFocusedSchema } from '../prompts/question-context';
import { assignEveryId } from './assign-every-id';
import { miningStore } from './mining-store';

/** One line of prompt text (explanations are shown one per line). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The rule creator's model steps (DexterSQL §3.1.4), on the `llm` queue: explain a failure,
 * judge it database-agnostic or not, group explanations, merge groups, write a rule. Each is one
 * model call through `askModel` and returns its usage. Clustering reads explanation texts from the
 * store by id, so workflow payloads carry ids only.
 */
export function createMiningLlmActivities(deps: QuestionLlmDeps) {
  const store = miningStore(deps.store);

  const activities = {
    /** Step 1: why one candidate disagrees with the gold SQL, one explanation per independent problem. */
    async explainFailure(input: { question: BenchmarkQuestion; mismatch: CandidateMismatch }): Promise<{ explanations: string[]; usage: LlmCallUsage }> {
      const { question, mismatch } = input;
      const db = await deps.databases.get(question.database);
      const schema = renderFocusedSchema(await loadSchema(deps, { database: question.database, prepared: null }), null);
      const answer = await askModel(deps.llm, 'explain-failure', {
        schema,
        dialect: dialectName(db.dialect),
        question: question.question,
        evidence: question.evidence?.trim() || '(none)',
        gold: question.goldSql,
        goldRows: input.mismatch.goldRows,
        candidate: mismatch.sql,
        candidateRows: mismatch.candidateRows,
      });
      const explanations = answer.value.explanations.map(oneLine).filter(Boolean);
      return { explanations, usage: answer.usage };
    },

    /** Step 2: keep only reusable SQL-formulation errors, not database-specific ones. */
    async isolateFailure(input: { question: string; explanation: string }): Promise<{ agnostic: boolean; reason: string; usage: LlmCallUsage }> {
      const answer = await askModel(deps.llm, 'isolate-failure', input);
      return { agnostic: answer.value.database_agnostic, reason: answer.value.reason ?? '', usage: answer.usage };
    },

    /** Step 3, within one batch of one database: explanations describing the same error form a group. */
    async clusterFailures(input: { jobId: string; ids: string[] }): Promise<{ groups: ErrorGroup[]; usage: LlmCallUsage }> {
      const explanations = await store.explanations(input.jobId, input.ids);
      const answer = await askModel(deps.llm, 'cluster-failures', {
        explanations: explanations.map((e) => `[${e.id}] ${e.text}`).join('\n'),
      });
      const groups = assignEveryId(
        input.ids,
        answer.value.groups.map((g) => ({ label: oneLine(g.label), ids: g.members })),
        (id) => oneLine(explanations.find((e) => e.id === id)!.text).slice(0, 120),
      );
      return { groups: groups.map((g) => ({ label: g.label, members: g.ids })), usage: answer.usage };
    },

    /** Step 3, merging: batch groups into a database's groups, and databases' groups into one set. */
    async mergeFailureGroups(input: { jobId: string; groups: ErrorGroup[] }): Promise<{ groups: ErrorGroup[]; usage: LlmCallUsage }> {
      const ids = input.groups.map((_, i) => `g${i + 1}`);
      const examples = await store.explanations(
        input.jobId,
        input.groups.map((g) => g.members[0]),
      );
      const answer = await askModel(deps.llm, 'merge-failure-groups', {
        groups: input.groups.map((g, i) => `[${ids[i]}] ${g.members.length} | ${g.label} | e.g. ${oneLine(examples[i].text)}`).join('\n'),
      });
      const merged = assignEveryId(
        ids,
        answer.value.merged.map((m) => ({ label: oneLine(m.label), ids: m.groups })),
        (id) => input.groups[ids.indexOf(id)].label,
      );
      const byId = new Map(ids.map((id, i) => [id, input.groups[i]]));
      return {
        groups: merged.map((m) => ({ label: m.label, members: m.ids.flatMap((id) => byId.get(id)!.members) })),
        usage: answer.usage,
      };
    },

    /**
     * Step 4: one canonical rule {gist, badPattern, correctPattern, fix} for a dominant group. A
     * group made by a shape difference is shown as its failing/gold query pairs with names and
     * values replaced by placeholders (the explanations name them), and the rule's gist is that
     * difference, worded by code: the model writes the patterns and the fix.
     */
    async synthesizeRule(input: { jobId: string; ruleId: string; group: ErrorGroup; shown: number }): Promise<{ rule: CorrectionRule; usage: LlmCallUsage }> {
      const { group } = input;
      const sample = await store.explanations(input.jobId, group.members.slice(0, input.shown));
      const paired = sample.filter((e) => e.pair);
      const asPairs = group.difference !== undefined && paired.length > 0;
      const shown = asPairs ? paired : sample;
      const pairLines = ([sql, gold]: string[], indent: string) => `${indent}wrong: ${oneLine(sql)}\n  right: ${oneLine(gold)}`;
      const answer = await askModel(deps.llm, 'synthesize-rule', {
        label: group.label,
        size: String(group.members.length),
        shown: String(shown.length),
        explanations: shown
          .map((e) =>
            asPairs
              ? pairLines(anonymizeQueries([e.pair!.sql, e.pair!.gold]), '- ')
              : `- ${oneLine(e.text)}${e.pair ? `\n${pairLines([e.pair.sql, e.pair.gold], '  ')}` : ''}`,
          )
          .join('\n'),
      });
      const { gist, bad_pattern, correct_pattern, fix } = answer.value;
      const rule: CorrectionRule = { id: input.ruleId, gist, badPattern: bad_pattern, correctPattern: correct_pattern, fix };
      return {
        rule:
          group.difference !== undefined
            ? { ...rule, gist: `${group.label.charAt(0).toUpperCase()}${group.label.slice(1)}.`, difference: group.difference }
            : rule,
        usage: answer.usage,
      };
    },
  };
  // Each one heartbeats while its model answers, so a killed worker's call is retried within the
  // heartbeat timeout, however long the attempt timeout a slow model needs.
  return Object.fromEntries(
    Object.entries(activities).map(([name, fn]) => [name, (input: never) => keepAlive(() => (fn as (i: never) => Promise<unknown>)(input))]),
  ) as typeof activities;
}

export type MiningLlmActivities = ReturnType<typeof createMiningLlmActivities>;
