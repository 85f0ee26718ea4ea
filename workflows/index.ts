/** Every workflow a decodex worker registers. */
export { answerQuestion } from './answer-question';
export { runBenchmark } from './run-benchmark';
export { prepareDatabase } from './prepare-database';
export { mineRules } from './mine-rules';
export { mineTrainingQuestion } from './mining/mine-training-question';
export { buildDecompositionKnowledge } from './build-decomposition-knowledge';
export { buildFewShotIndex } from './build-few-shot-index';
