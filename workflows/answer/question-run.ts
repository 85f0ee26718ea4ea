import type { QuestionContext } from '../../core/question/question-context';
import type { AnswerQuestionInput, Judgement, Route } from '../../core/answer-question-types';
import type { DagReport } from '../../core/dag/dag-report';
import type { WorkingCandidate } from './working-candidate';

/** One of DexterSQL's preliminary SQLs (schema linking, Step 2), by the schema view it was written over. */
export interface Draft {
  view: string;
  sql: string;
}

/**
 * What one question run's stages decided so far. Only the router (answer-question.ts and its route
 * functions) assigns it, from what each stage returns; finishRun reports it.
 */
export interface QuestionRun {
  /** What every LLM step is told; grows stage by stage (focus, grounding, notes). */
  ctx: QuestionContext;
  route: Route;
  judgement?: Judgement;
  /** The complex route's sub-question DAG (live: the `dag` query reads the same object). */
  dag?: DagReport;
  /** Whether the complex route ran (it runs at most once, even when it fell back to the direct path). */
  decomposed: boolean;
  /** DexterSQL's preliminary SQLs: the best answer there is if a budget ends the run before generation. */
  drafts: Draft[];
  candidates: WorkingCandidate[];
  knowledge: { fewShotExamples: number; correctionRules: number };
}

/** A run before its first stage: the question's context as asked, nothing decided. */
export function startQuestionRun(input: AnswerQuestionInput): QuestionRun {
  return {
    ctx: askedContext(input),
    route: 'direct',
    decomposed: false,
    drafts: [],
    candidates: [],
    knowledge: { fewShotExamples: 0, correctionRules: 0 },
  };
}

/** The context of the question as asked, before the database is opened. */
function askedContext(input: AnswerQuestionInput): QuestionContext {
  return {
    question: input.question,
    evidence: input.evidence,
    database: input.database,
    dialect: 'sqlite',
    prepared: null,
    focus: null,
    grounding: [],
    notes: [],
    ...(input.withholdExamplesOf ? { withholdExamplesOf: input.withholdExamplesOf } : {}),
  };
}
