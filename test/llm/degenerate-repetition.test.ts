import { degenerateRepetition } from '../../activities/llm/local/degenerate-repetition';

describe('degenerate repetition of a local generation', () => {
  it.each([
    ['{"sql": "SELECT name FROM singer LIMIT 1' + '0'.repeat(24), '0', 24],
    ['{"sql": "SELECT * FROM t WHERE a = 1' + ' AND a = 1'.repeat(24), ' AND a = 1', 24],
    ['{"reasoning": "' + 'the cat '.repeat(26), 'the cat ', 26],
  ])('stops %s', (text, unit, times) => {
    expect(degenerateRepetition(text)).toEqual({ unit, times });
  });

  it.each([
    'SELECT count(*) FROM singer',
    '{"sql": "SELECT name FROM singer WHERE age > 1000000"',
    "SELECT name FROM t WHERE code = '----------------------'", // 22 equal characters: below the run
    'SELECT a, b, c, d, e, f, g, h FROM t',
    '{"keywords": ["Londoner"' + ', "Londoner"'.repeat(12), // a poor list that still ends, not a loop
    '{"sql": "SELECT 1' + ' UNION SELECT 1'.repeat(10),
    'SELECT T1.id FROM a AS T1 JOIN b AS T2 ON T1.id = T2.id JOIN c AS T3 ON T2.id = T3.id',
    '{"sql": "SELECT 1", "reasoning": "        "', // whitespace is no unit
  ])('lets %s go on', (text) => {
    expect(degenerateRepetition(text)).toBeNull();
  });
});
