import { parseQuestionTree, renderQuestionTree } from '../../core/generation/dependency-tree';
import type { QuestionTree } from '../../core/generation/dependency-tree';
import { normaliseDate } from '../../core/generation/dependency-tree/date-values';
import { digitsValue, numberWordsValue } from '../../core/generation/dependency-tree/number-words';

/**
 * Questions are Spider train / BIRD train questions (marked) or written here. Spider dev and BIRD
 * dev are the evaluation sets: none of their questions may appear under test/
 * (test/generation/no-evaluation-questions.test.ts checks it).
 */

/** The filters and temporal constraints as `column operator values`, for compact assertions. */
function conditions(tree: QuestionTree): string[] {
  return [...tree.filters, ...tree.temporal].map((f) => `${f.column ?? '?'} ${f.operator} ${f.values.map((v) => JSON.stringify(v.value)).join(',')}`);
}

/** Every dependent as `role "text" <-relation- "head text"`, root first. */
function arcs(tree: QuestionTree): string[] {
  return tree.nodes
    .filter((n) => n.head !== null)
    .map((n) => `${n.role} "${n.text}" <-${n.relation}- "${tree.nodes[n.head!].text}"`)
    .sort();
}

describe('the tree: heads and dependents between chunks', () => {
  test('an "of" owner, a prepositional value, a relative clause and a sort key each hang from their head', () => {
    const tree = parseQuestionTree('What are the names of the pilots from Canada whose age is over 30, sorted by age in descending order?');
    expect(tree.nodes[0]).toMatchObject({ id: 0, role: 'question', text: 'What', head: null });
    expect(arcs(tree)).toEqual(
      [
        'projection "names" <-select- "What"',
        'entity "pilots" <-of- "names"',
        'value "Canada" <-=- "pilots"',
        'column "age" <-whose- "pilots"',
        'value "30" <->- "age"',
        // After the comma a new clause starts: the sort key depends on the root, not on "age" before it.
        'order "age" <-sorted by- "What"',
        'entity "order" <-in descending- "age"',
      ].sort(),
    );
  });

  test('an aggregate heads its argument; a group phrase hangs from the aggregate (written)', () => {
    const tree = parseQuestionTree('Show each department and the number of employees in each department.');
    expect(arcs(tree)).toEqual(
      [
        'projection "department" <-select- "Show"',
        'aggregate "number of" <-number of- "Show"',
        'projection "employees" <-of- "number of"',
        'group "department" <-in- "number of"',
      ].sort(),
    );
    expect(tree.groupBy).toEqual(['department']);
  });

  test('a superlative depends on the noun it orders and the top-N count on the superlative (written)', () => {
    const tree = parseQuestionTree('List the names of the 4 oldest teachers.');
    expect(arcs(tree)).toEqual(
      ['projection "names" <-select- "List"', 'entity "teachers" <-of- "names"', 'order "oldest" <-DESC- "teachers"', 'limit "4" <-LIMIT- "oldest"'].sort(),
    );
    expect(tree.limit).toBe(4);
    expect(conditions(tree)).toEqual([]);
  });

  test('a comparative with no noun leaves the value on the thing compared (Spider train)', () => {
    const tree = parseQuestionTree('How many heads of the departments are older than 56 ?');
    expect(arcs(tree)).toContain('value "56" <->- "departments"');
    expect(arcs(tree)).toContain('projection "heads" <-of- "How many"');
    expect(tree.nodes.some((n) => n.text === 'older')).toBe(false);
  });

  test('every node but the root has a head that exists, and no node is its own ancestor', () => {
    for (const question of QUESTIONS) {
      const tree = parseQuestionTree(question);
      expect(tree.nodes.filter((n) => n.head === null)).toHaveLength(1);
      for (const node of tree.nodes) {
        const seen = new Set<number>();
        let at: number | null = node.id;
        while (at !== null) {
          expect(seen.has(at)).toBe(false);
          seen.add(at);
          at = tree.nodes[at].head;
        }
      }
    }
  });
});

describe('what the question asks for', () => {
  const asked = (question: string): string[] => parseQuestionTree(question).projections.map((p) => (p.aggregate ? `${p.aggregate}(${p.phrase})` : p.phrase));

  test('an imperative missing from the word lists still opens the request and is no name (written)', () => {
    const tree = parseQuestionTree('Tally the email addresses and phone numbers of customers from Sacramento.');
    expect(asked(tree.question)).toEqual(['email addresses', 'phone numbers of customers']);
    expect(conditions(tree)).toEqual(['? = "Sacramento"']);
    expect(asked('Write down the title of the film along with its rating.')).toEqual(['title of film', 'rating']);
  });

  test('a later request names the columns to show, unless it adds to the answer (Spider train, written)', () => {
    expect(asked('Which authors belong to the institution "Google"? Show the first names and last names.')).toEqual(['first names', 'last names']);
    expect(asked("Which customer has the most orders? Also give the customer's city.")).toEqual(['customer', "customer's city"]);
  });

  test('a question word after an opening preposition or inside the sentence asks (BIRD train)', () => {
    expect(asked('In which year was the movie "La Antena" released?')).toEqual(['year']);
    expect(asked("The movie 'Gojira ni-sen mireniamu' is from which country?")).toEqual(['country']);
    expect(asked('What\'s the publisher of the book "Silicon Valley Gastronomic Treats"?')).toEqual(['publisher of book']);
  });
});

describe('literal capture', () => {
  test('values joined by "or" are one IN filter on their shared head (written)', () => {
    const tree = parseQuestionTree('How many trains leave from Leeds or the city of York?');
    expect(conditions(tree)).toEqual(['? IN "Leeds","York"']);
    expect(renderQuestionTree(tree)).toBe("SELECT COUNT(<trains>) WHERE <? of trains> IN ('Leeds', 'York')");
  });

  test('number words are normalised and "between ... and" is BETWEEN (written)', () => {
    expect(conditions(parseQuestionTree('Give the ids of orders that have between two and five items.'))).toEqual(['? BETWEEN 2,5']);
  });

  test('a negated year is a temporal != (written)', () => {
    const tree = parseQuestionTree('Which players were not born in 1990?');
    expect(tree.filters).toEqual([]);
    expect(tree.temporal).toEqual([
      expect.objectContaining({ operator: '!=', negated: true, values: [expect.objectContaining({ value: 1990, kind: 'year' })] }),
    ]);
  });

  test('the pieces of a title join into one name; a written date becomes ISO text (written)', () => {
    const tree = parseQuestionTree('What is the rating of the review posted on 2012/3/14 about the Peugeot 505s Turbo Diesel?');
    expect(tree.temporal.map((f) => f.values[0].value)).toEqual(['2012-03-14']);
    expect(tree.filters.map((f) => f.values[0])).toEqual([expect.objectContaining({ value: 'Peugeot 505s Turbo Diesel', kind: 'proper_noun' })]);
  });

  test('"from A to B" stays two values, not one title (written)', () => {
    const tree = parseQuestionTree('How many flights go from Boston to Denver?');
    expect([...tree.filters, ...tree.temporal].flatMap((f) => f.values.map((v) => v.value))).toEqual(['Boston', 'Denver']);
  });

  test('dash-joined numbers and clock times are one code (BIRD train)', () => {
    const tree = parseQuestionTree('What is the care plan for the patient with social security number 999-15-3685?');
    expect(conditions(tree)).toEqual(['security number = "999-15-3685"']);
    expect(parseQuestionTree('How many business ids have opening hours from 8AM to 6PM?').filters.flatMap((f) => f.values.map((v) => v.value))).toEqual([
      '8AM',
      '6PM',
    ]);
  });

  test('a number glued to its label or unit compares as the number (written)', () => {
    const values = (q: string): unknown[] => parseQuestionTree(q).filters.flatMap((f) => f.values.map((v) => v.value));
    expect(values('Who was the driver of shipment no.1701?')).toEqual([1701]);
    expect(values('How many trucks weigh over 3000lbs?')).toEqual([3000]);
  });

  test('a code the tokenizer splits is one literal (written)', () => {
    const tree = parseQuestionTree('Which lab ran the sample AB12_7_3?');
    expect(tree.filters.map((f) => f.values[0])).toEqual([expect.objectContaining({ text: 'AB12_7_3', value: 'AB12_7_3', kind: 'code' })]);
  });
});

describe('possible values are guesses, not conditions', () => {
  test('an adjective before its noun is offered with both spellings, never as a WHERE condition (written)', () => {
    const tree = parseQuestionTree('How many female students live in Boston?');
    expect(conditions(tree)).toEqual(['? = "Boston"']);
    expect(tree.possibleValues.map((f) => f.values[0])).toEqual([expect.objectContaining({ value: 'female', text: 'female students', kind: 'word' })]);
    expect(renderQuestionTree(tree)).toBe(
      "SELECT COUNT(<female students>) WHERE <? of students> = 'Boston'\n-- maybe stored values, or just description: 'female' or 'female students' (<students>)",
    );
  });

  test('a category modifier after a preposition and an article is a possible value (written)', () => {
    const tree = parseQuestionTree('How many customers are in the household segment?');
    expect(tree.filters).toEqual([]);
    expect(tree.possibleValues.map((f) => f.values[0].value)).toEqual(['household']);
  });
});

describe('renderQuestionTree', () => {
  test('no FROM: tables are left to the model', () => {
    for (const question of QUESTIONS) expect(renderQuestionTree(parseQuestionTree(question))).not.toMatch(/\bFROM\b/);
  });

  test('superlative with a counted noun orders by COUNT with LIMIT 1 (written)', () => {
    expect(renderQuestionTree(parseQuestionTree('Which city has the most hotels?'))).toBe('SELECT <city> ORDER BY COUNT(<hotels>) DESC LIMIT 1');
  });

  test('"at least N" before a plural noun is HAVING COUNT (written)', () => {
    const tree = parseQuestionTree('Which airlines operate at least 3 routes?');
    expect(tree.filters[0]).toMatchObject({ aggregate: 'COUNT', operator: '>=' });
    expect(renderQuestionTree(tree)).toBe('SELECT <airlines> GROUP BY ? HAVING COUNT(<routes>) >= 3');
  });

  test('"sorted by the number of X" orders by a count; "flight number of" names a column, no COUNT (Spider train)', () => {
    expect(renderQuestionTree(parseQuestionTree('List the cities which have more than 2 airports sorted by the number of airports.'))).toBe(
      'SELECT <cities> GROUP BY ? HAVING COUNT(<airports>) > 2 ORDER BY COUNT(<airports>) ASC',
    );
    expect(renderQuestionTree(parseQuestionTree('Show the flight number of flights with three lowest distances.'))).toBe(
      'SELECT <flight number of flights> ORDER BY <lowest distances> ASC LIMIT 3',
    );
  });

  test('named and implicit columns, a sort key and its direction', () => {
    expect(renderQuestionTree(parseQuestionTree('What are the names of the pilots from Canada whose age is over 30, sorted by age in descending order?'))).toBe(
      "SELECT <names of pilots> WHERE <? of pilots> = 'Canada' AND <age> > 30 ORDER BY <age> DESC",
    );
  });
});

describe('the tree travels through Temporal', () => {
  test('is plain JSON and deterministic', () => {
    for (const question of QUESTIONS) {
      const tree = parseQuestionTree(question);
      expect(JSON.parse(JSON.stringify(tree))).toEqual(tree);
      expect(parseQuestionTree(question)).toEqual(tree);
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

/** Training-set and written questions for the properties every tree must have. */
const QUESTIONS = [
  'How many heads of the departments are older than 56 ?',
  'What are the names of the pilots from Canada whose age is over 30, sorted by age in descending order?',
  'Show each department and the number of employees in each department.',
  'List the names of the 4 oldest teachers.',
  'How many trains leave from Leeds or the city of York?',
  'Which players were not born in 1990?',
  'What is the rating of the review posted on 2012/3/14 about the Peugeot 505s Turbo Diesel?',
  'What is the care plan for the patient with social security number 999-15-3685?',
  'How many female students live in Boston?',
  'Among the customers in the household segment, what is the average account balance?',
  "Which models are lighter than 2000 but not made by the 'Acme Motor Works'?",
];
