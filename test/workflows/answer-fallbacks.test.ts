import type { AnswerQuestionResult } from '../../core/answer-question-types';
import type { PipelineOverrides } from '../../core/pipeline/pipeline-config';
import type { ScriptRule } from '../../devkit/scripted-llm/server';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath, spiderDev } from '../../devkit/datasets';
import { scriptedExplorationRules } from '../../devkit/scripted-exploration-rules';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startPreparedScriptedStack } from '../support/prepared-scripted-stack';
import type { TestStack } from '../../devkit/test-workers';

/**
 * Small models degrade, they do not fail: when one role's answer is unusable even after the
 * repair re-asks (here the scripted model answers that role with text that is not JSON), the run
 * takes the papers' fallback for that stage, says so in the trace, and still answers.
 */
const DB = spiderDatabasePath('concert_singer');
const questions = spiderDev().filter((q) => q.db_id === 'concert_singer');
const gold = new Map(questions.map((q) => [q.question, q.query]));

/** A role that never answers in JSON: recognised by its instructions, like the scripted pipeline's rules. */
function brokenRole(name: string, instructions: string, unless?: string): ScriptRule {
  return {
    name,
    when: (p) => p.system.includes(instructions) && !(unless && p.system.includes(unless)),
    reply: () => 'I think the answer involves the singer table.',
  };
}

const step = (result: AnswerQuestionResult, name: string) => result.trace.filter((t) => t.step === name);

describe('answerQuestion falls back when a role answers outside its schema', () => {
  let llm: ScriptedLlm;
  let stack: TestStack;
  const breakRole = (rule: ScriptRule) => llm.setRules([rule, ...scriptedPipeline(gold), ...scriptedExplorationRules]);
  const ask = async (index: number, extra: { preset?: string; ablations?: string[]; pipeline?: PipelineOverrides } = {}) =>
    (await stack.client.ask({ question: questions[index].question, database: DB, ...extra })).result;

  beforeAll(async () => {
    llm = await startScriptedLlm();
    llm.setRules([...scriptedPipeline(gold), ...scriptedExplorationRules]);
    // Prepared with the (scripted) explorator, so the database has notes to select from.
    stack = await startPreparedScriptedStack(llm, DB);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
  });

  it('the judger: the direct path answers', async () => {
    breakRole(brokenRole('judger', 'decomposing it into sub-questions'));
    const result = await ask(1, { pipeline: { judging: { enabled: true } } }); // hybrid asks no judger

    expect(result.outcome).toBe('answered');
    expect(result.route).toBe('direct');
    expect(step(result, 'judgeComplexity')[0]).toMatchObject({ ok: false, detail: { type: 'LlmMalformed' } });
    expect(step(result, 'route').at(-1)!.outcome).toMatch(/^direct path by default: .*answered outside the JSON schema/);
  });

  it('note selection: the run goes on without notes', async () => {
    breakRole(brokenRole('note_selector', 'Decide which notes matter'));
    const result = await ask(29, { pipeline: { notes: { enabled: true } } }); // stadium names: a note touches the focus
    expect(result.outcome).toBe('answered');
    const selection = step(result, 'selectRelevantNotes');
    expect(selection[0]).toMatchObject({ ok: false });
    expect(selection.at(-1)!.outcome).toMatch(/^continuing without notes/);
    const generatorPrompts = llm.requests.filter((r) => r.roleGuess === 'generator' && r.prompt?.user.includes(questions[29].question));
    expect(generatorPrompts.length).toBeGreaterThan(0);
    for (const r of generatorPrompts) expect(r.prompt!.user).not.toContain('Notes on columns that are easy to confuse');
  });

  it("DecoSearch's schema selector: the whole schema", async () => {
    breakRole(brokenRole('selector', 'List what a schema search needs'));
    const result = await ask(3, { preset: 'decosearch' });
    expect(result.outcome).toBe('answered');
    expect(step(result, 'selector')[0].outcome).toMatch(/^fallback: the whole schema/);
    expect(step(result, 'selectTables')).toEqual([]);
  });

  it('the preliminary SQLs of linking: skipped, the retrieved focus stays', async () => {
    breakRole(brokenRole('linker', 'helping to find which tables and columns'));
    const result = await ask(5);
    expect(result.outcome).toBe('answered');
    const drafts = step(result, 'draftPreliminarySql');
    expect(drafts).toHaveLength(3);
    for (const d of drafts) expect(d.ok).toBe(false);
    expect(step(result, 'finalFocusedSchema')[0].outcome).toMatch(/\+0 columns from 0 drafts/);
  });

  it('the decomposer: no graph, the direct path answers', async () => {
    breakRole(brokenRole('decomposer', 'You plan how to answer a hard question over a database in steps'));
    const result = await ask(7, { preset: 'decosearch', ablations: ['judger'] }); // judger ablation: every question decomposed
    expect(result.outcome).toBe('answered');
    expect(result.route).toBe('direct');
    expect(step(result, 'decomposeQuestion').some((t) => t.summary === 'the decomposer failed')).toBe(true);
    expect(step(result, 'fallback')[0].outcome).toBe('no decomposition');
  });

  it('every generation path: the preliminary SQLs of linking become the candidates', async () => {
    breakRole(brokenRole('generator', 'SQL writer', 'helping to find which tables and columns'));
    const result = await ask(9);
    expect(result.outcome).toBe('answered');
    expect(result.candidates.map((c) => c.path).every((p) => p.startsWith('preliminary-'))).toBe(true);
    expect(step(result, 'fallback')[0]).toMatchObject({ summary: 'no generation path wrote a candidate' });
  });
});
