import type { CheckInput } from '../../activities/correction/checks/check-input';
import type { Finding } from '../../core/correction/finding';
import { runChecks } from '../../activities/correction/checks';
import { schemaHintOf, sharedSqlAnalyzer } from '../../activities/sql/shared-analyzer';
import type { SchemaInfo, TableInfo } from '../../core/database/schema-types';
import { withoutJoinConditions } from '../../activities/correction/checks/without-join-conditions';
import { withoutJoins } from '../../activities/correction/checks/without-joins';
import { rereadColumns } from '../../activities/correction/checks/reread-columns';

// A library written for this test: authors write books, members borrow them (loan links both).
const table = (name: string, columns: string[], primaryKey: string[], foreignKeys: TableInfo['foreignKeys'] = []): TableInfo => ({
  name,
  columns: columns.map((c) => ({ name: c, type: 'TEXT', nullable: true, primaryKey: primaryKey.includes(c) })),
  primaryKey,
  foreignKeys,
});
const library: SchemaInfo = {
  dialect: 'sqlite',
  tables: [
    table('author', ['author_id', 'name', 'born'], ['author_id']),
    table(
      'book',
      ['BookID', 'title', 'author_id', 'pages'],
      ['BookID'],
      [{ fromTable: 'book', fromColumns: ['author_id'], toTable: 'author', toColumns: ['author_id'] }],
    ),
    table('member', ['member_id', 'name'], ['member_id']),
    table(
      'book_loan',
      ['loan_id', 'BookID', 'member_id', 'due'],
      ['loan_id'],
      [
        { fromTable: 'book_loan', fromColumns: ['BookID'], toTable: 'book', toColumns: ['BookID'] },
        { fromTable: 'book_loan', fromColumns: ['member_id'], toTable: 'member', toColumns: ['member_id'] },
      ],
    ),
  ],
};

/** The findings of the checks for a query that ran and returned `columns`. */
async function findingsOf(question: string, sql: string, columns: string[], questionChecks = true, schema = library): Promise<Finding[]> {
  const analyzer = await sharedSqlAnalyzer();
  const analyze = (text: string) => analyzer.analyze(text, 'sqlite', schemaHintOf(schema));
  const analysis = analyze(sql);
  expect(analysis.ok).toBe(true);
  const input: CheckInput = {
    question,
    sql,
    schema,
    analysis,
    analyze,
    execution: { ok: true, columns, rows: [columns.map(() => 'x')], truncated: false },
  };
  return runChecks(input, { questionChecks });
}

/** The names of the checks that fire on a query that ran and returned `columns`. */
async function questionFindings(question: string, sql: string, columns: string[], questionChecks = true, schema = library): Promise<string[]> {
  return (await findingsOf(question, sql, columns, questionChecks, schema)).map((f) => f.check);
}

describe('checks that hold a query against its question (correction.questionChecks)', () => {
  it('warns about a table joined for nothing the question names, and only then', async () => {
    const longest = 'SELECT T1.title FROM book AS T1 JOIN book_loan AS T2 ON T1.BookID = T2.BookID ORDER BY T1.pages DESC LIMIT 1';
    expect(await questionFindings('What is the title of the longest book?', longest, ['title'])).toEqual(['unused-join']);
    // The question names the loans: the join keeps only books that were lent, as asked.
    expect(await questionFindings('What is the title of the longest book that was ever on loan?', longest, ['title'])).toEqual([]);
    // A column of the joined table is read: the join does work.
    const due = 'SELECT T1.title FROM book AS T1 JOIN book_loan AS T2 ON T1.BookID = T2.BookID ORDER BY T2.due LIMIT 1';
    expect(await questionFindings('Which book is due first?', due, ['title'])).toEqual([]);
    // Only joined tables, nothing else read: the matched pairs may be the point.
    expect(await questionFindings('Count them.', 'SELECT count(*) FROM book AS T1 JOIN author AS T2 ON T1.author_id = T2.author_id', ['count(*)'])).toEqual([]);
    // A sum per group over a table joined for nothing counts each book once per loan; a count per group is the join's point.
    const perAuthor = (agg: string) => `SELECT T1.author_id, ${agg} FROM book AS T1 JOIN book_loan AS T2 ON T1.BookID = T2.BookID GROUP BY T1.author_id`;
    expect(await questionFindings('For each author id, how many pages are there?', perAuthor('sum(T1.pages)'), ['author_id', 'sum'])).toEqual(['unused-join']);
    expect(await questionFindings('For each author id, how many books are there?', perAuthor('count(*)'), ['author_id', 'count'])).toEqual([]);
    // Off (the paper presets): not run.
    expect(await questionFindings('What is the title of the longest book?', longest, ['title'], false)).toEqual([]);
  });

  it("judges a table's own words, not those it shares with the tables beside it", async () => {
    // `book_loan` beside `book`: only "loan" is its own, and "book" in the question does not count.
    const sql = 'SELECT T1.title FROM book AS T1 JOIN book_loan AS T2 ON T1.BookID = T2.BookID';
    expect(await questionFindings('List every book title.', sql, ['title'])).toEqual(['unused-join']);
    expect(await questionFindings('List the titles of loaned books.', sql, ['title'])).toEqual([]);
  });

  it('counts a chain joined for nothing whole, and stays silent when the question names a table of it', async () => {
    // book_loan links member and book, so alone neither looks dangling; dropped together, nothing read is lost.
    const chain = 'SELECT T1.name FROM member AS T1 JOIN book_loan AS T2 ON T1.member_id = T2.member_id JOIN book AS T3 ON T2.BookID = T3.BookID';
    expect(await questionFindings('List every member name.', chain, ['name'])).toEqual(['unused-join']);
    expect(await questionFindings('List the names of members who have had a book.', chain, ['name'])).toEqual([]);
    // A table of the chain is read: only what lies beyond it could go, and nothing does.
    const read = 'SELECT T1.name, T3.title FROM member AS T1 JOIN book_loan AS T2 ON T1.member_id = T2.member_id JOIN book AS T3 ON T2.BookID = T3.BookID';
    expect(await questionFindings('List every member name with a title.', read, ['name', 'title'])).toEqual([]);
  });

  it("compares a table's words with its neighbours' by stem, keeps them as spelt when none would be left, and follows chains to a named table", async () => {
    const shop: SchemaInfo = {
      dialect: 'sqlite',
      tables: [
        table('Customers', ['customer_id', 'name', 'balance'], ['customer_id']),
        table(
          'Customer_Payments',
          ['payment_id', 'customer_id', 'amount'],
          ['payment_id'],
          [{ fromTable: 'Customer_Payments', fromColumns: ['customer_id'], toTable: 'Customers', toColumns: ['customer_id'] }],
        ),
        table(
          'Payment_Refunds',
          ['refund_id', 'payment_id', 'reason'],
          ['refund_id'],
          [{ fromTable: 'Payment_Refunds', fromColumns: ['payment_id'], toTable: 'Customer_Payments', toColumns: ['payment_id'] }],
        ),
      ],
    };
    // "customers" names Customers; Customer_Payments' own word is "payments", which the question does not say.
    const rich = 'SELECT T1.name FROM Customers AS T1 JOIN Customer_Payments AS T2 ON T1.customer_id = T2.customer_id WHERE T1.balance > 2000';
    expect(await questionFindings('List the names of customers with a balance over 2000.', rich, ['name'], true, shop)).toEqual(['unused-join']);
    expect(await questionFindings('List the names of customers who made a payment.', rich, ['name'], true, shop)).toEqual([]);
    // Customers beside Customer_Payments has no word of its own by stem: "customers", as spelt, is its own.
    const amounts = 'SELECT T2.amount FROM Customer_Payments AS T2 JOIN Customers AS T1 ON T1.customer_id = T2.customer_id';
    expect(await questionFindings('List every payment amount.', amounts, ['amount'], true, shop)).toEqual(['unused-join']);
    // The payments lead to the refunds the question names: the chain is the question's.
    const refunded =
      'SELECT T1.name FROM Customers AS T1 JOIN Customer_Payments AS T2 ON T1.customer_id = T2.customer_id JOIN Payment_Refunds AS T3 ON T3.payment_id = T2.payment_id';
    expect(await questionFindings('What are the names of customers with a refund?', refunded, ['name'], true, shop)).toEqual([]);
    expect(await questionFindings('What are the names of all customers?', refunded, ['name'], true, shop)).toEqual(['unused-join']);
  });

  it("does not take two tables' own bare id keys for a link between them", async () => {
    const keyed: SchemaInfo = {
      dialect: 'sqlite',
      tables: [
        table('stadium', ['id', 'name', 'capacity'], ['id']),
        table('game', ['id', 'stadium_id', 'season'], ['id'], [{ fromTable: 'game', fromColumns: ['stadium_id'], toTable: 'stadium', toColumns: ['id'] }]),
        table('injury', ['id', 'game_id', 'player'], ['id'], [{ fromTable: 'injury', fromColumns: ['game_id'], toTable: 'game', toColumns: ['id'] }]),
      ],
    };
    const sql = 'SELECT T1.name FROM stadium AS T1 JOIN game AS T2 ON T2.stadium_id = T1.id JOIN injury AS T3 ON T3.game_id = T2.id WHERE T1.capacity > 100';
    expect(await questionFindings('Which stadiums hold more than 100?', sql, ['name'], true, keyed)).toEqual(['unused-join']);
  });

  it('warns about an id returned where the question asks for no id', async () => {
    const sql = 'SELECT T2.member_id FROM book_loan AS T1 JOIN member AS T2 ON T1.member_id = T2.member_id ORDER BY T1.due LIMIT 1';
    expect(await questionFindings('Which member has the earliest due date on a loan?', sql, ['member_id'])).toEqual(['id-for-name']);
    expect(await questionFindings('Give the id of the member with the earliest due date on a loan.', sql, ['member_id'])).toEqual([]);
    expect(await questionFindings('Which member_id has the earliest due date on a loan?', sql, ['member_id'])).toEqual([]);
    // Camel-case ids count; words that merely end in "id" do not.
    expect(await questionFindings('Which book is the longest?', 'SELECT BookID FROM book ORDER BY pages DESC LIMIT 1', ['BookID'])).toEqual(['id-for-name']);
    expect(await questionFindings('Which book is the longest?', 'SELECT title AS paid FROM book ORDER BY pages DESC LIMIT 1', ['paid'])).toEqual([]);
  });

  it("warns about a table joined only for a column the query's other table has too, and only then", async () => {
    // Sales staff and the customers they look after: both have a city, and each a name of its own.
    const staff: SchemaInfo = {
      dialect: 'sqlite',
      tables: [
        table('employee', ['employee_id', 'name', 'city', 'birth_date', 'grade'], ['employee_id']),
        table(
          'customer',
          ['customer_id', 'name', 'city', 'credit', 'support_rep_id', 'grade'],
          ['customer_id'],
          [{ fromTable: 'customer', fromColumns: ['support_rep_id'], toTable: 'employee', toColumns: ['employee_id'] }],
        ),
      ],
    };
    // customer.grade is a number where employee.grade is a text (a pay band): not the same kind of value.
    staff.tables[0].columns[4].type = 'TEXT';
    staff.tables[1].columns[5].type = 'INTEGER';
    const ask = (question: string, sql: string) => questionFindings(question, sql, ['birth_date'], true, staff);
    const join = 'SELECT T1.birth_date FROM employee AS T1 JOIN customer AS T2 ON T2.support_rep_id = T1.employee_id';
    expect(await ask('Birth dates of the employees who live in Edmonton.', `${join} WHERE T2.city = 'Edmonton'`)).toEqual(['borrowed-column']);
    // The question names the customers: the join is what it asks for.
    expect(await ask('Birth dates of the employees whose customers live in Edmonton.', `${join} WHERE T2.city = 'Edmonton'`)).toEqual([]);
    // A label names each table's own things; a column only the joined table has; different kinds of value.
    expect(await ask('Birth dates of the employees who look after Ann.', `${join} WHERE T2.name = 'Ann'`)).toEqual([]);
    expect(await ask('Birth dates of the employees with credit above 5.', `${join} WHERE T2.credit > 5`)).toEqual([]);
    expect(await ask('Birth dates of the employees of grade 5.', `${join} WHERE T2.grade = 5`)).toEqual([]);
    // One table: nothing borrowed. Off (the paper presets): not run.
    expect(await ask('Birth dates of the employees who live in Edmonton.', "SELECT birth_date FROM employee WHERE city = 'Edmonton'")).toEqual([]);
    expect(
      await questionFindings('Birth dates of the employees who live in Edmonton.', `${join} WHERE T2.city = 'Edmonton'`, ['birth_date'], false, staff),
    ).toEqual([]);
    // The fix (correction.joinFixes) reads the column from the table that has it too, and cuts the join.
    const [borrowed] = await findingsOf(
      'Birth dates of the employees who live in Edmonton.',
      `${join} WHERE T2.city = 'Edmonton'`,
      ['birth_date'],
      true,
      staff,
    );
    expect(borrowed.fix).toEqual({
      sql: "SELECT T1.birth_date FROM employee AS T1 WHERE T1.city = 'Edmonton'",
      description: 'employee.city read instead of customer.city, the join to customer removed',
    });
  });

  it('cuts a join to a table out of a query when plain code can be sure of it, and only then (correction.joinFixes)', () => {
    const cut = (sql: string, ...tables: string[]) => withoutJoins(sql, 'sqlite', tables);
    // A later join goes with its ON condition; the clauses after FROM stay.
    expect(cut('SELECT T1.title FROM book AS T1 JOIN book_loan AS T2 ON T1.BookID = T2.BookID WHERE T1.pages > 9', 'book_loan')).toBe(
      'SELECT T1.title FROM book AS T1 WHERE T1.pages > 9',
    );
    // The first table gives its place to the second, whose ON condition goes.
    expect(cut('SELECT T2.title FROM book_loan AS T1 INNER JOIN book AS T2 ON T1.BookID = T2.BookID ORDER BY T2.pages DESC LIMIT 1', 'book_loan')).toBe(
      'SELECT T2.title FROM book AS T2 ORDER BY T2.pages DESC LIMIT 1',
    );
    // A chain goes whole, unaliased names too.
    expect(
      cut(
        'SELECT member.name FROM member JOIN book_loan ON member.member_id = book_loan.member_id JOIN book ON book_loan.BookID = book.BookID',
        'book',
        'book_loan',
      ),
    ).toBe('SELECT member.name FROM member');
    // Not sure: the table is still read, a subquery or set operation, a comma or USING join, a self-join, a table not joined.
    expect(cut('SELECT T2.due FROM book AS T1 JOIN book_loan AS T2 ON T1.BookID = T2.BookID', 'book_loan')).toBeNull();
    expect(cut('SELECT title FROM book JOIN book_loan ON book.BookID = book_loan.BookID WHERE pages > (SELECT avg(pages) FROM book)', 'book_loan')).toBeNull();
    expect(cut('SELECT title FROM book JOIN book_loan ON book.BookID = book_loan.BookID UNION SELECT name FROM author', 'book_loan')).toBeNull();
    expect(cut('SELECT title FROM book, book_loan WHERE book.BookID = book_loan.BookID', 'book_loan')).toBeNull();
    expect(cut('SELECT title FROM book JOIN book_loan USING (BookID)', 'book_loan')).toBeNull();
    expect(cut('SELECT a.title FROM book AS a JOIN book AS b ON a.author_id = b.author_id', 'book')).toBeNull();
    expect(cut('SELECT title FROM book JOIN author ON book.author_id = author.author_id', 'member')).toBeNull();
    // Reading a column through another table (named as the scanner names it): only `ref.column` of the columns named.
    expect(rereadColumns('SELECT t2.City, T2.name FROM a AS T1 JOIN b AS T2 ON T1.x = T2.x', 'sqlite', 'T2', 'T1', ['city'])).toBe(
      'SELECT T1.City, T2.name FROM a AS T1 JOIN b AS T2 ON T1.x = T2.x',
    );
    expect(rereadColumns('SELECT "b"."city" FROM a JOIN "b" ON a.x = "b".x', 'sqlite', 'B', 'a', ['city'])).toBe(
      'SELECT a."city" FROM a JOIN "b" ON a.x = "b".x',
    );
  });

  it("offers unused-join's cut as the finding's fix", async () => {
    const sql = 'SELECT T1.title FROM book AS T1 JOIN book_loan AS T2 ON T1.BookID = T2.BookID ORDER BY T1.pages DESC LIMIT 1';
    const [finding] = await findingsOf('What is the title of the longest book?', sql, ['title']);
    expect(finding).toMatchObject({
      check: 'unused-join',
      fix: { sql: 'SELECT T1.title FROM book AS T1 ORDER BY T1.pages DESC LIMIT 1', description: 'the join to book_loan removed' },
    });
  });

  it('cuts join conditions out of a query, whatever they hold, and nothing else', () => {
    const cut = (sql: string) => withoutJoinConditions(sql, 'sqlite')?.replace(/\s+/g, ' ').trim();
    expect(cut('SELECT a.x FROM a JOIN b ON a.id = b.aid WHERE b.y = 1')).toBe('SELECT a.x FROM a JOIN b WHERE b.y = 1');
    // Parentheses, a subquery and a string that reads like SQL stay inside the condition they belong to.
    expect(cut("SELECT a.x FROM a JOIN b ON (a.id = b.aid AND b.k IN (SELECT k FROM c WHERE c.t = ' ON x WHERE ')) ORDER BY a.x")).toBe(
      'SELECT a.x FROM a JOIN b ORDER BY a.x',
    );
    // Each of several joins, and a join inside a subquery, which ends at its closing parenthesis.
    expect(cut('SELECT * FROM a JOIN b ON a.i = b.i LEFT JOIN c ON c.j = b.j WHERE a.z IN (SELECT y FROM d JOIN e ON d.k = e.k)')).toBe(
      'SELECT * FROM a JOIN b LEFT JOIN c WHERE a.z IN (SELECT y FROM d JOIN e )',
    );
    expect(cut("SELECT 'ON' FROM a")).toBe("SELECT 'ON' FROM a");
    expect(withoutJoinConditions("SELECT 'unterminated FROM a", 'sqlite')).toBeNull();
  });
});
