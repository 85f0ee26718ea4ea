import { fewShotJobId, parseFewShotSources } from '../../cli/few-shot-source-list';

/** `build-knowledge few-shot --sources`: named training sets and users' files, mixed. */
describe('parseFewShotSources', () => {
  it('keeps named sets and makes files absolute, in order', () => {
    expect(parseFewShotSources('spider-train, ./mine.jsonl,bird-train,/data/other.jsonl', '/home/u/work')).toEqual([
      'spider-train',
      '/home/u/work/mine.jsonl',
      'bird-train',
      '/data/other.jsonl',
    ]);
  });

  it('refuses a name that is neither a training set nor a .jsonl file, and an empty list', () => {
    expect(() => parseFewShotSources('spider-train,spider-dev', '/w')).toThrow(
      /unknown few-shot source "spider-dev": use spider-train, bird-train or a \.jsonl file/,
    );
    expect(() => parseFewShotSources(' , ', '/w')).toThrow(/names no source/);
  });
});

describe('fewShotJobId', () => {
  it('names the sets and files, and tells two folders’ files of the same name apart', () => {
    expect(fewShotJobId(['spider-train', 'bird-train'])).toBe('few-shot-index-spider-train+bird-train');
    const a = fewShotJobId(['spider-train', '/a/train.jsonl']);
    expect(a).toMatch(/^few-shot-index-spider-train\+train\.jsonl-[0-9a-f]{8}$/);
    expect(fewShotJobId(['spider-train', '/b/train.jsonl'])).not.toBe(a);
    expect(fewShotJobId(['spider-train', '/a/train.jsonl'])).toBe(a);
  });
});
