import { perturb } from '../../bench/sql-perturbations';

describe('gold SQL perturbations for the perturbed-prediction check', () => {
  it('swaps the first two top-level select expressions, and only in a simple SELECT', () => {
    expect(perturb('SELECT name ,  country ,  age FROM singer ORDER BY age DESC', 'permute_select')).toBe(
      'SELECT country , name , age FROM singer ORDER BY age DESC',
    );
    expect(perturb('SELECT DISTINCT T1.a, count(b, c) FROM t AS T1', 'permute_select')).toBe('SELECT DISTINCT count(b, c) , T1.a FROM t AS T1');
    expect(perturb('SELECT count(*) FROM singer', 'permute_select')).toBeNull();
    expect(perturb('SELECT a, b FROM t UNION SELECT c, d FROM u', 'permute_select')).toBeNull();
  });

  it('adds DISTINCT to the outermost SELECT unless it is there', () => {
    expect(perturb('SELECT name FROM t WHERE x IN (SELECT y FROM u)', 'add_distinct')).toBe('SELECT DISTINCT name FROM t WHERE x IN (SELECT y FROM u)');
    expect(perturb('SELECT DISTINCT name FROM t', 'add_distinct')).toBeNull();
  });

  it('drops a trailing ORDER BY, but not one that a LIMIT depends on', () => {
    expect(perturb('SELECT name FROM singer ORDER BY age DESC', 'drop_order_by')).toBe('SELECT name FROM singer');
    expect(perturb('SELECT name FROM singer ORDER BY age DESC LIMIT 1', 'drop_order_by')).toBeNull();
    expect(perturb('SELECT name FROM singer WHERE id IN (SELECT id FROM t ORDER BY x)', 'drop_order_by')).toBeNull();
  });

  it('changes the first string literal, else the first integer', () => {
    expect(perturb("SELECT name FROM singer WHERE country = 'France' AND age > 20", 'change_literal')).toBe(
      "SELECT name FROM singer WHERE country = 'France_x' AND age > 20",
    );
    expect(perturb('SELECT name FROM singer WHERE country = "France"', 'change_literal')).toBe('SELECT name FROM singer WHERE country = "France_x"');
    expect(perturb('SELECT name FROM singer WHERE age > 20 AND w > 1.5', 'change_literal')).toBe('SELECT name FROM singer WHERE age > 21 AND w > 1.5');
    expect(perturb('SELECT name FROM singer', 'change_literal')).toBeNull();
  });
});
