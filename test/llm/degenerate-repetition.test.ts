import { degenerateRepetition } from '../../activities/llm/local/degenerate-repetition';

describe('degenerate repetition of a local generation', () => {
  it.each([
    ['{"sql": "SELECT name FROM singer LIMIT 1' + '0'.repeat(24), '0', 24],
    ['{"sql": "SELECT * FROM t WHERE a = 1' + ' AND a = 1'.repeat(8), ' AND a = 1', 8],
    ['{"reasoning": "' + 'the the '.repeat(8), 'the ', 16],
  ])('stops %s', (text, unit, times) => {
    expect(degenerateRepetition(text)).toEqual({ unit, times });
  });

  it.each([
    'SELECT count(*) FROM singer',
    '{"sql": "SELECT name FROM singer WHERE age > 1000000"',
    "SELECT name FROM t WHERE code = '----------------------'", // 22 equal characters: below the run
    'SELECT a, b, c, d, e, f, g, h FROM t',
    'SELECT T1.id FROM a AS T1 JOIN b AS T2 ON T1.id = T2.id JOIN c AS T3 ON T2.id = T3.id',
    '{"sql": "SELECT 1", "reasoning": "        "', // whitespace is no unit
  ])('lets %s go on', (text) => {
    expect(degenerateRepetition(text)).toBeNull();
  });
});
