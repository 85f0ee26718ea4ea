import { rewriteMisreadString } from '../../activities/database/sqlite-legacy-strings';
import { openTargetDatabase } from '../../activities/database/open-database';
import { spiderDatabasePath } from '../../devkit/datasets';

const misread = (value: string) => `no such column: "${value}" - should this be a string literal in single-quotes?`;

describe('double-quoted strings, as Python sqlite3 reads them', () => {
  it('rewrites the named double-quoted token (every occurrence) as a string literal', () => {
    expect(rewriteMisreadString('SELECT a FROM t WHERE b = "x" OR c = "x" OR d = "y"', misread('x'))).toBe(
      "SELECT a FROM t WHERE b = 'x' OR c = 'x' OR d = \"y\"",
    );
  });

  it('escapes quotes: "it\'s" and "say ""hi"""', () => {
    expect(rewriteMisreadString(`SELECT 1 WHERE a = "it's"`, misread("it's"))).toBe("SELECT 1 WHERE a = 'it''s'");
    expect(rewriteMisreadString(`SELECT 1 WHERE a = "say ""hi"""`, misread('say "hi"'))).toBe(`SELECT 1 WHERE a = 'say "hi"'`);
  });

  it('leaves single-quoted text and comments alone, and ignores any other error', () => {
    expect(rewriteMisreadString(`SELECT '"x"' -- "x"\n, "x"`, misread('x'))).toBe(`SELECT '"x"' -- "x"\n, 'x'`);
    expect(rewriteMisreadString('SELECT "x"', 'no such table: t')).toBeNull();
    expect(rewriteMisreadString('SELECT y', misread('x'))).toBeNull();
  });
});

describe('the SQLite executor reads double-quoted strings as stock SQLite does', () => {
  it('answers BIRD-style SQL with "string" literals, and still reports real missing columns', async () => {
    const db = await openTargetDatabase(spiderDatabasePath('concert_singer'));
    try {
      const opts = { timeoutMs: 5_000, maxRows: 10 };
      const quoted = await db.execute('SELECT Name FROM singer WHERE Country = "France" ORDER BY Name', opts);
      const plain = await db.execute("SELECT Name FROM singer WHERE Country = 'France' ORDER BY Name", opts);
      expect(quoted.rows.length).toBeGreaterThan(0);
      expect(quoted.rows).toEqual(plain.rows);
      // A double-quoted name that IS a column stays a column.
      const column = await db.execute('SELECT "Name" FROM singer WHERE "Country" = "France" ORDER BY 1', opts);
      expect(column.rows).toEqual(plain.rows);
      await expect(db.execute('SELECT nope FROM singer', opts)).rejects.toThrow(/no such column: nope/);
    } finally {
      await db.close();
    }
  });
});
