import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A user's own database and examples, as `build-knowledge few-shot --sources <file.jsonl>` takes
 * them: a small shop database of the tests' own, five pairs whose SQL runs on it, and three that
 * must be rejected: one names a column the schema does not have, one writes, one never ends.
 */
export const GOOD_EXAMPLES = [
  { question: 'How many products cost more than 10?', sql: 'SELECT count(*) FROM product WHERE price > 10' },
  { question: 'List the names of customers ordered by their city.', sql: 'SELECT name FROM customer ORDER BY city' },
  { question: 'What is the average price of all products?', sql: 'SELECT avg(price) FROM product' },
  {
    question: 'Which customer placed the most orders?',
    sql: 'SELECT c.name FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY count(*) DESC LIMIT 1',
  },
  // Labelled by db_id: the example carries that label instead of the database's file name.
  {
    question: 'Show the total quantity ordered for each product.',
    sql: 'SELECT p.name, sum(o.quantity) FROM orders o JOIN product p ON p.id = o.product_id GROUP BY p.id',
    db_id: 'shop_orders',
  },
] as const;

export const BAD_EXAMPLES = [
  { question: 'What colour is each product?', sql: 'SELECT name, colour FROM product', reason: /sql_error: .*no such column: colour/ },
  { question: 'Remove every product.', sql: 'DELETE FROM product', reason: /read_only_violation: rejected DELETE: it deletes rows/ },
  // Never ends: stopped at the job's per-statement timeout.
  {
    question: 'Count every whole number.',
    sql: 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n',
    reason: /timeout: query stopped after its \d+ ms timeout/,
  },
] as const;

/** Lines of the file (1-based) the bad examples are on: the file has a blank line after the good ones. */
export const BAD_LINES = [7, 8, 9];

export const PRODUCT_ROWS = 4;

export interface UserExamples {
  database: string;
  file: string;
  /** The database file's bytes, hashed: equal before and after means nothing was written. */
  fingerprint(): string;
  productRows(): number;
}

export function writeUserExamples(dir: string, name = 'examples.jsonl'): UserExamples {
  const database = path.join(dir, 'shop.sqlite');
  const db = new Database(database);
  db.exec(`
    CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT, price REAL);
    CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(id), product_id INTEGER REFERENCES product(id), quantity INTEGER);
    INSERT INTO product VALUES (1, 'pen', 2.5), (2, 'lamp', 30), (3, 'desk', 120), (4, 'mug', 8);
    INSERT INTO customer VALUES (1, 'Ada', 'Paris'), (2, 'Bo', 'Oslo');
    INSERT INTO orders VALUES (1, 1, 1, 3), (2, 1, 2, 1), (3, 2, 4, 2);
  `);
  db.close();
  // The database by a path relative to the file, as users write it.
  const line = (e: { question: string; sql: string; db_id?: string }) =>
    JSON.stringify({ question: e.question, sql: e.sql, database: 'shop.sqlite', ...(e.db_id ? { db_id: e.db_id } : {}) });
  const file = path.join(dir, name);
  writeFileSync(file, [...GOOD_EXAMPLES.map(line), '', ...BAD_EXAMPLES.map(line)].join('\n') + '\n');
  return {
    database,
    file,
    fingerprint: () => createHash('sha256').update(readFileSync(database)).digest('hex'),
    productRows() {
      const reader = new Database(database, { readonly: true });
      try {
        return (reader.prepare('SELECT count(*) AS n FROM product').get() as { n: number }).n;
      } finally {
        reader.close();
      }
    },
  };
}

/** A file none of whose examples runs on the shop database (the ones that fail at once). */
export function writeOnlyBadExamples(dir: string, name = 'broken.jsonl'): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    BAD_EXAMPLES.slice(0, 2)
      .map((e) => JSON.stringify({ question: e.question, sql: e.sql, database: 'shop.sqlite' }))
      .join('\n') + '\n',
  );
  return file;
}
