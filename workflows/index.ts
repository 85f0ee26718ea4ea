/** Every workflow a decodex worker registers. */
export { answerQuestion } from './answer-question';
