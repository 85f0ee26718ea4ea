import { assertNoUnsafeView, unsafeViews, type ViewRow } from '../../activities/database/mysql-unsafe-views';
import { ReadOnlyViolation } from '../../activities/database/target-database';

/** Definitions as MariaDB 10.11 stores them (information_schema.VIEWS.VIEW_DEFINITION). */
const view = (name: string, definition: string, securityType = 'DEFINER', definer = 'root@localhost'): ViewRow => ({
  schema: 'shop',
  name,
  securityType,
  definer,
  definition,
});
const READER = 'reader@%';

describe('unsafeViews', () => {
  it('finds stored function calls, in the schema or another, and side-effect built-ins', () => {
    const found = unsafeViews(
      [
        view('own_schema', 'select `shop`.`t`.`a` AS `a`,`evil`() AS `e` from `shop`.`t`'),
        view('other_schema', 'select `other`.`evil`(1) AS `e`'),
        view('locks', "select get_lock('x',0) AS `g`,load_file('/etc/hostname') AS `f`"),
        view('sequence', 'select nextval(`shop`.`s`) AS `n`'),
        view('plain', "select `shop`.`t`.`a` AS `a`,count(0) AS `n`,concat(`shop`.`t`.`b`,'x') AS `c` from `shop`.`t` group by `shop`.`t`.`a`"),
      ],
      READER,
    );
    expect(found).toEqual([
      { schema: 'shop', name: 'own_schema', reason: 'it calls stored function evil(), with the rights of root@localhost' },
      { schema: 'shop', name: 'other_schema', reason: 'it calls stored function evil(), with the rights of root@localhost' },
      { schema: 'shop', name: 'locks', reason: 'it calls GET_LOCK(), LOAD_FILE(), with the rights of root@localhost' },
      { schema: 'shop', name: 'sequence', reason: 'it calls NEXTVAL(), with the rights of root@localhost' },
    ]);
  });

  it('counts a view that reads an unsafe view, however deep, and an INVOKER view that calls a function', () => {
    const found = unsafeViews(
      [
        view('outer', 'select `inner`.`a` AS `a` from `shop`.`inner`'),
        view('inner', 'select `middle`.`a` AS `a` from `shop`.`middle`'),
        view('middle', 'select `evil`() AS `a`'),
        view('invoker', 'select `evil`() AS `a`', 'INVOKER'),
        view('unrelated', 'select `shop`.`t`.`a` AS `a` from `shop`.`t`'),
      ],
      READER,
    ).map((v) => `${v.name}: ${v.reason}`);
    expect(found).toEqual([
      'middle: it calls stored function evil(), with the rights of root@localhost',
      'invoker: it calls stored function evil()',
      'inner: it reads shop.middle',
      'outer: it reads shop.inner',
    ]);
  });

  it('counts a definer-rights view whose definition the account cannot read, unless the account is its definer', () => {
    const found = unsafeViews([view('hidden', ''), view('hidden_invoker', '', 'INVOKER'), view('own', '', 'DEFINER', '`reader`@`%`')], READER);
    expect(found.map((v) => `${v.name}: ${v.reason}`)).toEqual([
      'hidden: it runs with the rights of root@localhost and this account cannot read its definition (SHOW VIEW)',
    ]);
  });
});

describe('assertNoUnsafeView', () => {
  const unsafe = [{ schema: 'shop', name: 'Bad_View', reason: 'it calls stored function evil()' }];

  it.each([
    'SELECT * FROM bad_view',
    'SELECT * FROM `BAD_VIEW`',
    'SELECT * FROM shop.bad_view',
    'SELECT * FROM `shop`.`Bad_View` AS x',
    'SELECT a FROM t WHERE a IN (SELECT a FROM bad_view)',
    "SELECT 'bad_view'",
    'SELECT 1 /* bad_view */',
  ])('refuses %s', (sql) => {
    expect(() => assertNoUnsafeView(sql, unsafe, 'shop')).toThrow(ReadOnlyViolation);
    expect(() => assertNoUnsafeView(sql, unsafe, 'shop')).toThrow(
      /view shop\.Bad_View: reading it can change the database \(it calls stored function evil\(\)\)/,
    );
  });

  it.each(['SELECT * FROM bad_view_archive', 'SELECT * FROM not_bad_view', 'SELECT bad_view2 FROM t', 'SELECT $bad_view FROM t'])('lets %s through', (sql) => {
    expect(() => assertNoUnsafeView(sql, unsafe, 'shop')).not.toThrow();
  });

  it("names a view of another database only together with that database's name, however the two are joined", () => {
    const elsewhere = [{ schema: 'archive', name: 'orders', reason: 'it calls stored function evil()' }];
    expect(() => assertNoUnsafeView('SELECT * FROM orders', elsewhere, 'shop')).not.toThrow();
    for (const sql of ['SELECT * FROM archive.orders', 'SELECT * FROM `ARCHIVE` /* x */ . `orders`', 'SELECT * FROM archive\n.orders'])
      expect(() => assertNoUnsafeView(sql, elsewhere, 'shop')).toThrow(/view archive\.orders/);
  });

  it('matches a name with a backquote in it as SQL spells it, doubled', () => {
    const odd = [{ schema: 'shop', name: 'a`b', reason: 'x' }];
    expect(() => assertNoUnsafeView('SELECT * FROM `a``b`', odd, 'shop')).toThrow(ReadOnlyViolation);
  });
});
