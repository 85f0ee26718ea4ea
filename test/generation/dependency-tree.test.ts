import { parseQuestionTree, renderQuestionTree } from '../../core/generation/dependency-tree';
import type { QuestionTree } from '../../core/generation/dependency-tree';
import { normaliseDate } from '../../core/generation/dependency-tree/date-values';
import { digitsValue, numberWordsValue } from '../../core/generation/dependency-tree/number-words';
import { spiderDev } from '../support/datasets';

/** Questions are copied verbatim from Spider dev and BIRD dev unless marked otherwise. */

/** The filters and temporal constraints as `column operator values`, for compact assertions. */
function conditions(tree: QuestionTree): string[] {
  return [...tree.filters, ...tree.temporal].map((f) => `${f.column ?? '?'} ${f.operator} ${f.values.map((v) => JSON.stringify(v.value)).join(',')}`);
}

describe('parseQuestionTree on Spider dev questions', () => {
  test('how many → COUNT of the counted noun, no filter', () => {
    const tree = parseQuestionTree('How many singers do we have?');
    expect(tree.aggregates).toEqual([{ function: 'COUNT', argument: 'singers', cue: 'how many' }]);
    expect(tree.projections).toEqual([{ phrase: 'singers', aggregate: 'COUNT' }]);
    expect(conditions(tree)).toEqual([]);
    expect(tree.limit).toBeNull();
  });

  test('a capitalised code after its column noun is an equality filter', () => {
    const tree = parseQuestionTree('How many flights have destination ATO?');
    expect(tree.filters).toEqual([
      {
        column: 'destination',
        context: 'many flights have destination',
        operator: '=',
        values: [{ text: 'ATO', value: 'ATO', kind: 'proper_noun', tokens: [5, 5] }],
        negated: false,
        aggregate: null,
      },
    ]);
  });

  test('"A or the state of B" → one IN filter on the column named before the values', () => {
    const tree = parseQuestionTree('What are the emails of the professionals living in either the state of Hawaii or the state of Wisconsin?');
    expect(conditions(tree)).toEqual(['state IN "Hawaii","Wisconsin"']);
  });

  test('years joined by "or" are one temporal IN constraint', () => {
    const tree = parseQuestionTree('How many concerts are there in year 2014 or 2015?');
    expect(tree.filters).toEqual([]);
    expect(conditions(tree)).toEqual(['year IN 2014,2015']);
    expect(tree.temporal[0].values.map((v) => v.kind)).toEqual(['year', 'year']);
  });

  test('number words are normalised and "between ... and" is BETWEEN', () => {
    const tree = parseQuestionTree('Give the ids of documents that have between one and two paragraphs.');
    expect(conditions(tree)).toEqual(['? BETWEEN 1,2']);
  });

  test('"the 3 most populated" → ORDER BY DESC LIMIT 3, and 3 is not a filter', () => {
    const tree = parseQuestionTree('Return the names of the 3 most populated countries.');
    expect(tree.limit).toBe(3);
    expect(tree.orderBy).toEqual([{ by: 'most populated countries', direction: 'DESC', aggregate: null, cue: 'most' }]);
    expect(conditions(tree)).toEqual([]);
  });

  test('"the most" + a plural noun orders by a COUNT', () => {
    const tree = parseQuestionTree('Which country has the most of TV Channels? List the country and number of TV Channels it has.');
    expect(tree.limit).toBe(1);
    expect(tree.orderBy[0].direction).toBe('DESC');
    expect(tree.projections[0]).toEqual({ phrase: 'country', aggregate: null });
  });

  test('listed aggregates share their argument; a prepositional value has an implicit column', () => {
    const tree = parseQuestionTree('What is the average, minimum, and maximum age of all singers from France?');
    expect(tree.aggregates.map((a) => `${a.function}(${a.argument})`)).toEqual(['AVG(age of singers)', 'MIN(age of singers)', 'MAX(age of singers)']);
    expect(tree.filters).toHaveLength(1);
    expect(tree.filters[0]).toMatchObject({ column: null, operator: '=', values: [{ value: 'France', kind: 'proper_noun' }] });
    expect(tree.filters[0].context).toMatch(/singers from$/);
  });

  test('"in each" groups; "different" asks for DISTINCT', () => {
    expect(parseQuestionTree('Show all countries and the number of singers in each country.').groupBy).toEqual(['country']);
    const distinct = parseQuestionTree('What are  the different countries with singers above age 20?');
    expect(distinct.distinct).toBe(true);
    expect(distinct.projections).toEqual([{ phrase: 'countries', aggregate: null }]);
    expect(conditions(distinct)).toEqual(['age > 20']);
  });

  test('"in descending order of age" is an explicit ORDER BY with no LIMIT', () => {
    const tree = parseQuestionTree('What are the names, countries, and ages for every singer in descending order of age?');
    expect(tree.projections.map((p) => p.phrase)).toEqual(['names', 'countries', 'ages']);
    expect(tree.orderBy).toEqual([{ by: 'age', direction: 'DESC', aggregate: null, cue: 'order of' }]);
    expect(tree.limit).toBeNull();
  });

  test('a quoted literal with a negated "built by" keeps its text and becomes !=', () => {
    const tree = parseQuestionTree("Which models are lighter than 3500 but not built by the 'Ford Motor Company'?");
    expect(conditions(tree)).toEqual(['? < 3500', '? != "Ford Motor Company"']);
    expect(tree.filters[1]).toMatchObject({ negated: true, values: [{ kind: 'quoted' }] });
  });

  test('"the letter w" is a LIKE pattern even unquoted and lowercase', () => {
    const tree = parseQuestionTree('Return the names and template ids for documents that contain the letter w in their description.');
    expect(tree.filters).toHaveLength(1);
    expect(tree.filters[0]).toMatchObject({ operator: 'LIKE', match: 'contains', values: [{ value: 'w' }] });
  });
});

describe('parseQuestionTree on BIRD dev questions', () => {
  test('a code the tokenizer splits (TR007_4_19) is one literal', () => {
    const tree = parseQuestionTree('What is the bond type of TR007_4_19?');
    expect(tree.filters.map((f) => f.values[0])).toEqual([{ text: 'TR007_4_19', value: 'TR007_4_19', kind: 'code', tokens: [6, 10] }]);
  });

  test('a written date becomes ISO text; a name and an adjective category are filters', () => {
    const tree = parseQuestionTree('Tell the defensive work rate for Kevin Berigaud on 2013/2/22.');
    expect(tree.temporal).toEqual([expect.objectContaining({ operator: '=', values: [expect.objectContaining({ value: '2013-02-22', kind: 'date' })] })]);
    expect(tree.filters.map((f) => f.values[0].value)).toEqual(['defensive', 'Kevin Berigaud']);
  });

  test('a predicate value ("whose status is restricted") attaches to its column', () => {
    const tree = parseQuestionTree('How many cards of legalities whose status is restricted have text boxes?');
    expect(conditions(tree)).toEqual(['status = "restricted"']);
    expect(tree.aggregates[0].function).toBe('COUNT');
  });

  test('"between 5 to 10" is a range on the noun before it; "after 1996" is a temporal >', () => {
    expect(conditions(parseQuestionTree('Among the comments with scores between 5 to 10, what is the percentage of the users with 0 up votes?'))[0]).toBe(
      'scores BETWEEN 5,10',
    );
    const issued = parseQuestionTree("List all the clients' IDs whose junior credit cards were issued after 1996.");
    expect(issued.temporal).toEqual([expect.objectContaining({ operator: '>', values: [expect.objectContaining({ value: 1996 })] })]);
  });

  test('"at least 3 car manufacturers" compares a count of the noun after the number (HAVING)', () => {
    // Spider dev.
    const tree = parseQuestionTree('Which countries in europe have at least 3 car manufacturers?');
    expect(conditions(tree)).toEqual(['car manufacturers >= 3']);
    expect(tree.filters[0].aggregate).toBe('COUNT');
    expect(renderQuestionTree(tree)).toBe('SELECT <countries> FROM ? GROUP BY ? HAVING COUNT(<car manufacturers>) >= 3');
  });

  test('an exact count before a noun is a stored value, not HAVING', () => {
    const tree = parseQuestionTree('What is the maximum horsepower and the make of the car models with 3 cylinders?');
    expect(tree.filters).toEqual([expect.objectContaining({ column: 'cylinders', operator: '=', aggregate: null })]);
  });
});

describe('ordering, limits and shares of rows', () => {
  test('"the first X" orders ascending with LIMIT 1; "first name" does not', () => {
    const first = parseQuestionTree('Which year was the first Singapore Grand Prix?');
    expect(first.limit).toBe(1);
    expect(first.orderBy[0]).toMatchObject({ direction: 'ASC', cue: 'first' });
    expect(first.filters.map((f) => f.values[0].value)).toEqual(['Singapore Grand Prix']);
    // Spider dev.
    expect(parseQuestionTree('What is the first name of every student who has a dog but does not have a cat?').limit).toBeNull();
  });

  test('a comparative choice between named alternatives picks one row', () => {
    const tree = parseQuestionTree('Which player is older, Aaron Lennon or Abdelaziz Barrada?');
    expect(conditions(tree)).toEqual(['? IN "Aaron Lennon","Abdelaziz Barrada"']);
    expect(tree.orderBy).toEqual([{ by: 'older', direction: 'DESC', aggregate: null, cue: 'older' }]);
    expect(tree.limit).toBe(1);
  });

  test('"the youngest 3 players" → LIMIT 3 and the negated year is !=', () => {
    // Made up from the wink-nlp probe in FACTS.md.
    const tree = parseQuestionTree('Name the youngest 3 players who did not play in 1991.');
    expect(tree.projections).toEqual([{ phrase: 'players', aggregate: null }]);
    expect(tree.limit).toBe(3);
    expect(tree.orderBy[0].direction).toBe('ASC');
    expect(tree.temporal).toEqual([expect.objectContaining({ operator: '!=', negated: true })]);
  });

  test('"most common" orders by a count of the noun', () => {
    expect(renderQuestionTree(parseQuestionTree('What is the most common bond type?'))).toBe(
      'SELECT <common bond type> FROM ? ORDER BY COUNT(<bond type>) DESC LIMIT 1',
    );
  });

  test('a percentage is a share of counts and an adjective restricts its noun', () => {
    const tree = parseQuestionTree('What percentage of male clients request for weekly statements to be issued?');
    expect(tree.aggregates[0]).toMatchObject({ function: 'COUNT', cue: 'percentage' });
    expect(renderQuestionTree(tree)).toMatch(/^SELECT 100\.0 \* COUNT\(CASE WHEN \? THEN 1 END\) \/ COUNT\(<male clients/);
    expect(tree.filters.map((f) => f.values[0].value)).toEqual(['male']);
  });
});

describe('values the question does not capitalise or quote', () => {
  test('the agent after a participle and "by"', () => {
    const tree = parseQuestionTree('Please list the names of the badges obtained by csgillespie.');
    expect(tree.filters.map((f) => f.values[0])).toEqual([expect.objectContaining({ value: 'csgillespie', kind: 'word' })]);
  });

  test('the modifier of a category noun ("pauper format") and a compass word in a place name', () => {
    const card = parseQuestionTree('Is there any card from Erica Yang artist in pauper format and available in paper? If so, indicate its ID.');
    expect(conditions(card)).toEqual(['artist = "Erica Yang"', 'format = "pauper"']);
    const clients = parseQuestionTree('How many clients who were born in 1920 stay in east Bohemia?');
    expect(clients.filters.map((f) => f.values[0].value)).toEqual(['east Bohemia']);
    expect(clients.temporal.map((f) => f.values[0].value)).toEqual([1920]);
  });

  test('"about X" is a LIKE over the topic words', () => {
    const tree = parseQuestionTree('Give the number of votes for the post about data visualization.');
    expect(tree.filters).toEqual([
      expect.objectContaining({ column: 'post', operator: 'LIKE', match: 'contains', values: [expect.objectContaining({ value: 'data visualization' })] }),
    ]);
  });
});

describe('renderQuestionTree', () => {
  test('renders an SQL skeleton with the question words in slots and literals as SQL', () => {
    const tree = parseQuestionTree('What are the names of the singers from France whose age is over 30, sorted by age in descending order?');
    expect(renderQuestionTree(tree)).toBe("SELECT <names of singers> FROM ? WHERE <? of the singers from> = 'France' AND <age> > 30 ORDER BY <age> DESC");
  });

  test('grammar-only lowercase values are marked as guesses', () => {
    expect(renderQuestionTree(parseQuestionTree('How many cards of legalities whose status is restricted have text boxes?'))).toBe(
      "SELECT COUNT(<cards of legalities>) FROM ? WHERE <status> = 'restricted' /* if stored as a value */",
    );
  });

  test('superlative with a counted noun, IN and LIKE', () => {
    expect(renderQuestionTree(parseQuestionTree('Which country has the most singers?'))).toBe('SELECT <country> FROM ? ORDER BY COUNT(<singers>) DESC LIMIT 1');
    expect(renderQuestionTree(parseQuestionTree('How many concerts are there in year 2014 or 2015?'))).toBe(
      'SELECT COUNT(<concerts>) FROM ? WHERE <year> IN (2014, 2015)',
    );
  });
});

describe('the tree travels through Temporal', () => {
  test('is plain JSON and deterministic over real questions', () => {
    for (const { question } of spiderDev().slice(0, 200)) {
      const tree = parseQuestionTree(question);
      expect(JSON.parse(JSON.stringify(tree))).toEqual(tree);
      expect(parseQuestionTree(question)).toEqual(tree);
      expect(renderQuestionTree(tree)).toMatch(/^SELECT .* FROM \?/);
    }
  });
});

describe('number and date normalisation', () => {
  test('digits, separators, percent and money', () => {
    expect(digitsValue('1,000')).toBe(1000);
    expect(digitsValue('5%')).toBe(5);
    expect(digitsValue('$20.5')).toBe(20.5);
    expect(digitsValue('USD100,000')).toBe(100000);
    expect(digitsValue('12a')).toBeNull();
  });

  test('number words', () => {
    expect(numberWordsValue(['three'])).toBe(3);
    expect(numberWordsValue(['twenty', 'five'])).toBe(25);
    expect(numberWordsValue(['two', 'hundred', 'and', 'five'])).toBe(205);
    expect(numberWordsValue(['twenty-five'])).toBe(25);
    expect(numberWordsValue(['dogs'])).toBeNull();
  });

  test('dates', () => {
    expect(normaliseDate('January 5, 2010')).toBe('2010-01-05');
    expect(normaliseDate('5th January 2010')).toBe('2010-01-05');
    expect(normaliseDate('2013/2/22')).toBe('2013-02-22');
    expect(normaliseDate('12/31/2005')).toBe('2005-12-31');
    expect(normaliseDate('September 2005')).toBe('2005-09');
    expect(normaliseDate('2005')).toBeNull();
  });
});
