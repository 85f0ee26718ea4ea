import { localThreads } from '../../activities/llm/local/local-threads';

describe('the local model threads', () => {
  it('uses every core of an idle machine', () => {
    expect(localThreads(undefined, { cores: 2, load1: 0 })).toBe(2);
    expect(localThreads(undefined, { cores: 2, load1: 0.3 })).toBe(2);
    expect(localThreads(undefined, { cores: 8, load1: 0.2 })).toBe(8);
    expect(localThreads(undefined, { cores: 1, load1: 0 })).toBe(1);
  });

  it('leaves the cores already busy alone (spinning threads stall when one is descheduled), but keeps one', () => {
    expect(localThreads(undefined, { cores: 2, load1: 1 })).toBe(1);
    expect(localThreads(undefined, { cores: 2, load1: 4.6 })).toBe(1);
    expect(localThreads(undefined, { cores: 8, load1: 3.6 })).toBe(4);
    expect(localThreads(undefined, { cores: 8, load1: 12 })).toBe(1);
  });

  it('takes DECODEX_LLM_LOCAL_THREADS whatever the machine, and refuses a value that is not a positive integer', () => {
    expect(localThreads('3', { cores: 2, load1: 0 })).toBe(3);
    expect(localThreads('1', { cores: 8, load1: 0 })).toBe(1);
    expect(localThreads('', { cores: 2, load1: 0 })).toBe(2);
    expect(() => localThreads('0', { cores: 2, load1: 0 })).toThrow('DECODEX_LLM_LOCAL_THREADS must be a positive integer, got "0"');
    expect(() => localThreads('two', { cores: 2, load1: 0 })).toThrow('DECODEX_LLM_LOCAL_THREADS');
  });
});
