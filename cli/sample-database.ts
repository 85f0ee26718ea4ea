import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * A small shop database the project creates itself, so the main job has something to ask
 * about on a fresh machine. Deterministic content; created once, then reused read-only.
 */
export function ensureSampleDatabase(home: string): string {
  const file = path.join(home, 'sample', 'shop.sqlite');
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  // Build under a temporary name and rename, so an interrupted build never leaves half a database.
  const tmp = `${file}.tmp-${process.pid}`;
  const db = new Database(tmp);
  db.exec(`
    CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, joined DATE NOT NULL);
    CREATE TABLE product (product_id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL);
    CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customer(customer_id),
                         ordered_on DATE NOT NULL);
    CREATE TABLE order_item (order_id INTEGER NOT NULL REFERENCES orders(order_id),
                             product_id INTEGER NOT NULL REFERENCES product(product_id),
                             quantity INTEGER NOT NULL, PRIMARY KEY (order_id, product_id));
  `);
  const customers = [
    [1, 'Ada Lovelace', 'London', '2024-01-15'],
    [2, 'Grace Hopper', 'New York', '2024-02-03'],
    [3, 'Alan Turing', 'Manchester', '2024-03-22'],
    [4, 'Katherine Johnson', 'Hampton', '2024-05-09'],
    [5, 'Edsger Dijkstra', 'Amsterdam', '2024-06-30'],
  ];
  const products = [
    [1, 'Mechanical keyboard', 'hardware', 89.0],
    [2, 'Noise-cancelling headphones', 'hardware', 199.5],
    [3, 'SQL cookbook', 'books', 39.9],
    [4, 'Standing desk', 'furniture', 420.0],
    [5, 'USB-C hub', 'hardware', 35.25],
  ];
  const orders = [
    [1, 1, '2024-07-01'],
    [2, 2, '2024-07-03'],
    [3, 1, '2024-08-12'],
    [4, 3, '2024-08-20'],
    [5, 4, '2024-09-02'],
    [6, 2, '2024-09-15'],
    [7, 5, '2024-10-01'],
    [8, 1, '2024-10-18'],
  ];
  const items = [
    [1, 1, 1],
    [1, 3, 2],
    [2, 2, 1],
    [3, 5, 3],
    [4, 3, 1],
    [5, 4, 1],
    [6, 1, 2],
    [6, 5, 1],
    [7, 2, 2],
    [8, 4, 1],
    [8, 3, 1],
  ];
  const insert = (sql: string, rows: unknown[][]) => {
    const stmt = db.prepare(sql);
    for (const row of rows) stmt.run(...row);
  };
  db.transaction(() => {
    insert('INSERT INTO customer VALUES (?, ?, ?, ?)', customers);
    insert('INSERT INTO product VALUES (?, ?, ?, ?)', products);
    insert('INSERT INTO orders VALUES (?, ?, ?)', orders);
    insert('INSERT INTO order_item VALUES (?, ?, ?)', items);
  })();
  db.close();
  renameSync(tmp, file);
  return file;
}

export const SAMPLE_QUESTION = 'Which customer has spent the most money in total, and how much?';
