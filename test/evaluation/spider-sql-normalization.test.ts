import {
  joinSpacedComparisons,
  removeDistinct,
  replaceCurrentYear,
  spiderComparablePair,
  spiderOrderMatters,
} from '../../core/evaluation/spider-sql-normalization';

describe('the SQL rewrites of test-suite-sql-eval', () => {
  it('drops every DISTINCT keyword and keeps every other character', () => {
    expect(removeDistinct('SELECT DISTINCT name FROM t')).toBe('SELECT  name FROM t');
    expect(removeDistinct('SELECT count(distinct name) FROM t')).toBe('SELECT count( name) FROM t');
    expect(removeDistinct('select Distinct(a) from t')).toBe('select (a) from t');
  });

  it('leaves strings, quoted names, comments and longer words alone', () => {
    const sql = `SELECT distinct_count, "distinct", 'distinct', [distinct] FROM t -- distinct\nWHERE x = 'a distinct b'`;
    expect(removeDistinct(sql)).toBe(sql);
  });

  it('joins `> =`, `< =`, `! =` as plain text, as the official postprocess does', () => {
    expect(joinSpacedComparisons('a > = 1 AND b < = 2 AND c ! = 3')).toBe('a >= 1 AND b <= 2 AND c != 3');
    expect(joinSpacedComparisons("x = 'a > = b'")).toBe("x = 'a >= b'");
  });

  it('decides row order from the literal text `order by` of the gold', () => {
    expect(spiderOrderMatters('SELECT a FROM t ORDER BY a')).toBe(true);
    expect(spiderOrderMatters('SELECT a FROM t ORDER  BY a')).toBe(false);
    expect(spiderOrderMatters("SELECT a FROM t WHERE b = 'order by'")).toBe(true);
    expect(spiderOrderMatters('SELECT a FROM t')).toBe(false);
  });

  it('replaces YEAR(CURDATE()) with 2020', () => {
    expect(replaceCurrentYear('SELECT YEAR ( CURDATE ( ) ) - born FROM p')).toBe('SELECT 2020- born FROM p');
  });

  it('prepares a pair: DISTINCT removed unless kept, order taken from the rewritten gold', () => {
    expect(spiderComparablePair('SELECT DISTINCT a FROM t', 'SELECT a FROM t ORDER BY a')).toEqual({
      predicted: 'SELECT  a FROM t',
      gold: 'SELECT a FROM t ORDER BY a',
      orderMatters: true,
    });
    expect(spiderComparablePair('SELECT DISTINCT a FROM t', 'SELECT a FROM t', true).predicted).toBe('SELECT DISTINCT a FROM t');
  });
});
