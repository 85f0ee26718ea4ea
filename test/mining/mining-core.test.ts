import { assignEveryId } from '../../activities/mining/assign-every-id';
import { RunBudget } from '../../core/budget';
import { estimateCost } from '../../core/benchmark/cost';
import { exampleExclusion } from '../../core/mining/example-exclusion';
import { estimateSqlDifficulty } from '../../core/mining/sql-difficulty';
import { anonymizeQueries, anonymizeSql } from '../../core/mining/anonymize-sql';
import { groupsRowsItDoesNotLabel, queryMayShow, rewriteBeyondRules, SQL_DIFFERENCES, sqlDifferences } from '../../core/mining/sql-differences';
import { stratifiedSample } from '../../core/mining/stratified-sample';
import { MINING_DEFAULTS, validateMiningInput, type MineRulesInput } from '../../core/mining/mining-types';
import { addCall, emptyUsage } from '../../core/usage';

describe('rule mining, pure parts', () => {
  it('says whether the few-shot index holds the mined questions, and that each is excluded from its own prompt', () => {
    expect(exampleExclusion('spider-train', ['spider-train', 'bird-train'])).toMatch(
      /^the few-shot index was built from spider-train, the set being mined: its entries for the mined questions are excluded/,
    );
    expect(exampleExclusion('spider-train', ['bird-train'])).toMatch(
      /^the few-shot index was built from bird-train, not from spider-train; still, each question/,
    );
    expect(exampleExclusion('/data/train.jsonl', undefined)).toMatch(/^no few-shot index is built; each question is never shown itself/);
  });

  it('estimates difficulty from the gold SQL structure, ignoring keywords inside literals', () => {
    expect(estimateSqlDifficulty('SELECT count(*) FROM singer')).toBe('simple');
    expect(estimateSqlDifficulty("SELECT name FROM t WHERE note = 'join us, select one, group by'")).toBe('simple');
    expect(estimateSqlDifficulty('SELECT T1.name FROM a AS T1 JOIN b AS T2 ON T1.id = T2.id ORDER BY T1.age DESC LIMIT 1')).toBe('moderate');
    expect(estimateSqlDifficulty('SELECT name FROM a WHERE id NOT IN (SELECT a_id FROM b) INTERSECT SELECT name FROM c')).toBe('challenging');
  });

  it('samples every stratum in turn, reproducibly by seed, in the items’ own order', () => {
    const items = [
      ...Array.from({ length: 90 }, (_, i) => ({ id: i, level: 'easy' })),
      ...Array.from({ length: 8 }, (_, i) => ({ id: 90 + i, level: 'hard' })),
      ...Array.from({ length: 2 }, (_, i) => ({ id: 98 + i, level: 'extra' })),
    ];
    const a = stratifiedSample(items, (x) => x.level, 20, 5);
    expect(a).toEqual(stratifiedSample(items, (x) => x.level, 20, 5));
    expect(a).not.toEqual(stratifiedSample(items, (x) => x.level, 20, 6));
    const count = (level: string) => a.filter((x) => x.level === level).length;
    // Round robin: both small strata are taken whole, the large one fills the rest.
    expect([count('easy'), count('hard'), count('extra')]).toEqual([10, 8, 2]);
    expect(a.map((x) => x.id)).toEqual([...a.map((x) => x.id)].sort((x, y) => x - y));
    expect(stratifiedSample(items, (x) => x.level, 500, 1)).toHaveLength(100);
  });

  it('a model grouping is made total and exclusive: invented ids dropped, repeats kept once, missing ids alone', () => {
    const groups = assignEveryId(
      ['a', 'b', 'c', 'd'],
      [
        { label: 'x', ids: ['[b]', 'a', 'zzz'] },
        { label: 'y', ids: ['a', 'c'] },
      ],
      (id) => `alone ${id}`,
    );
    expect(groups).toEqual([
      { label: 'x', ids: ['a', 'b'] },
      { label: 'y', ids: ['c'] },
      { label: 'alone d', ids: ['d'] },
    ]);
  });

  it('the whole job’s cost budget stops new work once the priced usage reaches it', () => {
    const prices = { m: { inputPerMillion: 1_000, outputPerMillion: 1_000 } };
    const budget = new RunBudget(
      { maxTokens: 1e9, maxLlmCalls: 1e9, maxCostUsd: 1 },
      () => 0,
      {},
      (u) => estimateCost(u, { '*': 'm' }, prices),
    );
    expect(budget.refuse(1)).toBeUndefined();
    budget.record([{ role: 'generator', model: 'm', promptTokens: 900, completionTokens: 100, latencyMs: 1, cacheHit: false }]);
    expect(budget.refuse(1)).toEqual({ kind: 'cost_budget', message: 'cost budget of $1 reached' });
    expect(() => new RunBudget({ maxTokens: 1, maxLlmCalls: 1, maxCostUsd: 1 }, () => 0)).toThrow(/price/);
    // A resumed job starts from what was spent before.
    const spent = addCall(emptyUsage(), { role: 'r', model: 'm', promptTokens: 5, completionTokens: 0, latencyMs: 1, cacheHit: false });
    expect(new RunBudget({ maxTokens: 5, maxLlmCalls: 10 }, () => 0, { usage: spent }).refuse(1)?.kind).toBe('token_budget');
  });

  it('refuses settings that would do nothing or cannot work', () => {
    const ok: MineRulesInput = { ...MINING_DEFAULTS, jobId: 'j', dataset: 'spider-train', datasetsRoot: '/x' };
    expect(() => validateMiningInput(ok)).not.toThrow();
    expect(() => validateMiningInput({ ...ok, dataset: 'bird-dev' })).toThrow(/spider-train or a .jsonl/);
    expect(() => validateMiningInput({ ...ok, clustering: { ...ok.clustering, batchSize: 1 } })).toThrow(/batchSize/);
    expect(() => validateMiningInput({ ...ok, budget: { ...ok.budget, maxCostUsd: 5 } })).toThrow(/needs prices/);
    expect(() => validateMiningInput({ ...ok, sample: { ...ok.sample, databases: [] } })).toThrow(/at least one/);
  });
  it("words how a query's shape differs from the gold query's, most structural first, and ignores strings and columns", () => {
    const gold = 'SELECT name FROM city WHERE country = (SELECT code FROM country ORDER BY pop DESC LIMIT 1)';
    expect(sqlDifferences('SELECT name FROM city ORDER BY pop LIMIT 1', gold, { candidate: ['city'], gold: ['city', 'country'] })).toEqual([
      'does not nest the subquery the answer needs',
      'does not read a table the answer needs',
      'sorts the other way (ASC against DESC)',
    ]);
    expect(
      sqlDifferences('SELECT DISTINCT T1.name, count(*) FROM a AS T1 JOIN b AS T2 ON T1.id = T2.aid GROUP BY T1.name', 'SELECT name FROM a', {
        candidate: ['a', 'b'],
        gold: ['a'],
      }),
    ).toEqual([
      'groups rows (GROUP BY) where the answer does not',
      'reads a table the answer does not need',
      'uses an aggregate (COUNT, SUM, AVG, MIN, MAX) the answer does not',
      'removes duplicates (DISTINCT) where the answer does not',
    ]);
    expect(sqlDifferences('SELECT x FROM t ORDER BY y ASC', 'SELECT x FROM t ORDER BY y DESC', null)).toEqual(['sorts the other way (ASC against DESC)']);
    expect(sqlDifferences('SELECT count(DISTINCT x) FROM t', 'SELECT count(*) FROM t', null)).toEqual([
      'counts distinct values where the answer counts rows, or the reverse',
    ]);
    expect(sqlDifferences('SELECT a FROM t INTERSECT SELECT a FROM u', 'SELECT a FROM t WHERE a IN (SELECT a FROM u)', null)).toEqual([
      'uses INTERSECT, EXCEPT or UNION where the answer does not',
      'does not nest the subquery the answer needs',
    ]);
    // Another column, another value, a clause word inside a string: the same shape.
    expect(sqlDifferences("SELECT b FROM t WHERE c = 'group by x'", "SELECT a FROM t WHERE c = 'y'", { candidate: ['t'], gold: ['T'] })).toEqual([]);
  });
  it('tells from a query alone whether it can show a difference: a rule is offered only where it could apply', () => {
    const grouped = "SELECT T1.name, count(*) FROM a AS T1 JOIN b AS T2 ON T1.id = T2.aid WHERE T1.kind = 'order by' GROUP BY T1.name";
    const plain = "SELECT name FROM a WHERE kind = 'group by' ORDER BY name DESC LIMIT 1";
    const may = (sql: string) => SQL_DIFFERENCES.filter((d) => queryMayShow(sql, d));
    expect(queryMayShow(grouped, 'groups rows (GROUP BY) where the answer does not')).toBe(true);
    expect(queryMayShow(plain, 'groups rows (GROUP BY) where the answer does not')).toBe(false);
    expect(queryMayShow(grouped, 'sorts (ORDER BY) where the answer does not')).toBe(false); // only a string says "order by"
    expect(queryMayShow(plain, 'reads a table the answer does not need')).toBe(false);
    expect(queryMayShow(grouped, 'reads a table the answer does not need')).toBe(true);
    expect(queryMayShow('SELECT x FROM a AS T1, b AS T2', 'reads a table the answer does not need')).toBe(true);
    expect(queryMayShow(plain, 'sorts the other way (ASC against DESC)')).toBe(true);
    expect(queryMayShow('SELECT count(x) FROM a', 'counts distinct values where the answer counts rows, or the reverse')).toBe(true);
    // Each difference and its opposite: a query can show exactly one of the two.
    for (const sql of [grouped, plain])
      for (const [has, lacks] of [
        ['groups rows (GROUP BY) where the answer does not', 'does not group rows (GROUP BY) where the answer does'],
        ['sorts (ORDER BY) where the answer does not', 'does not sort (ORDER BY) where the answer does'],
        ['limits the rows (LIMIT) where the answer does not', 'does not limit the rows (LIMIT) where the answer does'],
        ['removes duplicates (DISTINCT) where the answer does not', 'does not remove duplicates (DISTINCT) where the answer does'],
      ])
        expect(queryMayShow(sql, has)).toBe(!queryMayShow(sql, lacks));
    // Missing parts are possible in any query; a rule not grouped by shape is offered to every query.
    expect(may(plain)).toContain('does not read a table the answer needs');
    expect(may(plain)).toContain('lacks an aggregate (COUNT, SUM, AVG, MIN, MAX) the answer uses');
    expect(queryMayShow(plain, 'the reviser found a wrong join')).toBe(true);
  });

  it("replaces a query's names and values by placeholders and keeps its shape, one placeholder per name across a pair", () => {
    expect(
      anonymizeSql(
        'SELECT T1.Claim_ID, COUNT(T2.Settlement_ID) FROM Claims AS T1 JOIN Settlements AS T2 ON T1.Claim_ID = T2.Claim_ID ORDER BY T2.Date DESC LIMIT 1',
      ),
    ).toBe(
      'SELECT T1.<column1>, COUNT(T2.<column2>) FROM <table1> AS T1 JOIN <table2> AS T2 ON T1.<column1> = T2.<column1> ORDER BY T2.<column3> DESC LIMIT 1',
    );
    expect(anonymizeSql('SELECT count(*) FROM Allergy_type WHERE allergytype = "animal" AND age > 20')).toBe(
      'SELECT count(*) FROM <table1> WHERE <column1> = <value> AND <column2> > 20',
    );
    // Tables listed with commas and used as qualifiers before FROM; an alias that is not T<n>.
    expect(anonymizeSql('SELECT singer.name, c.year FROM singer, concert c WHERE singer.id = c.singer_id')).toBe(
      'SELECT <table1>.<column1>, c.<column2> FROM <table1>, <table2> c WHERE <table1>.<column3> = c.<column4>',
    );
    expect(anonymizeQueries(["SELECT name FROM singer WHERE country = 'France'", 'SELECT name FROM singer JOIN song ON singer.id = song.singer_id'])).toEqual([
      'SELECT <column1> FROM <table1> WHERE <column2> = <value>',
      'SELECT <column1> FROM <table1> JOIN <table2> ON <table1>.<column3> = <table2>.<column4>',
    ]);
  });
  it('tells a grouped query of aggregates only, whose rows say nothing of their group, from one that shows or limits them', () => {
    const unlabelled = [
      'SELECT SUM(Bonus) FROM evaluation GROUP BY employee_id',
      'select max(area_code), min(area_code) from area_code_state group by area_code;',
      'SELECT MAX(age) - MIN(age) AS span FROM singer GROUP BY country',
      'SELECT count(*) total FROM singer WHERE country = "France" GROUP BY singer_id HAVING count(*) > 1',
    ];
    const labelledOrNot = [
      'SELECT country, count(*) FROM singer GROUP BY country',
      'SELECT count(*) FROM singer GROUP BY country ORDER BY count(*) DESC LIMIT 1',
      'SELECT count(*) FROM singer',
      'SELECT count(*) + age FROM singer GROUP BY country',
      // Nested grouping is some outer query's business; a set operation is not judged.
      'SELECT name FROM employees WHERE salary IN (SELECT MIN(salary) FROM employees GROUP BY department_id)',
      'SELECT count(*) FROM (SELECT city FROM airports GROUP BY city HAVING count(*) > 3)',
      'SELECT count(*) FROM a GROUP BY x UNION SELECT count(*) FROM b GROUP BY y',
      // Words inside strings are no clause.
      "SELECT count(*) FROM t WHERE note = 'group by'",
    ];
    expect(unlabelled.filter(groupsRowsItDoesNotLabel)).toEqual(unlabelled);
    expect(labelledOrNot.filter(groupsRowsItDoesNotLabel)).toEqual([]);
  });
  it('holds a rule rewrite to its rules: their differences made, nothing else changed', () => {
    const query = 'SELECT name FROM a';
    const grouping = 'does not group rows (GROUP BY) where the answer does';
    expect(rewriteBeyondRules(query, 'SELECT name FROM a GROUP BY name', [grouping])).toEqual({ missing: [], unexpected: [] });
    // The rewriter copied the rule's whole pattern: a count, an order and a limit came with the grouping.
    expect(rewriteBeyondRules(query, 'SELECT count(*), name FROM a GROUP BY name ORDER BY name DESC LIMIT 1', [grouping])).toEqual({
      missing: [],
      unexpected: [
        'lacks an aggregate (COUNT, SUM, AVG, MIN, MAX) the answer uses',
        'does not sort (ORDER BY) where the answer does',
        'does not limit the rows (LIMIT) where the answer does',
      ],
    });
    expect(rewriteBeyondRules(query, 'SELECT DISTINCT name FROM a', [grouping])).toEqual({
      missing: [grouping],
      unexpected: ['does not remove duplicates (DISTINCT) where the answer does'],
    });
    // A table rule cannot be checked without parsing: it is held only to changing nothing else.
    expect(rewriteBeyondRules('SELECT T1.name FROM a AS T1 JOIN b AS T2 ON T1.id = T2.aid', query, ['reads a table the answer does not need'])).toEqual({
      missing: [],
      unexpected: [],
    });
    // A rule grouped by the model says nothing of what it may change.
    expect(rewriteBeyondRules(query, 'SELECT count(*) FROM a', [grouping, undefined])).toBeNull();
  });
});
