import { isTrainingSplit } from '../../core/datasets/training-split';

describe('which datasets are training splits', () => {
  it.each([
    ['spider-train', true],
    ['bird-train', true],
    ['/data/my_train.jsonl', true],
    ['spider-dev', false],
    ['bird-mini-dev', false],
    ['/data/trainers.jsonl', false],
    ['/data/train/dev.jsonl', false],
  ])('%s: %s', (name, expected) => {
    expect(isTrainingSplit(name)).toBe(expected);
  });
});
