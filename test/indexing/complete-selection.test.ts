import { completeSelection } from '../../core/linking/complete-selection';
import type { SchemaInfo, TableInfo } from '../../core/database/schema-types';
import { columnOfName } from '../../activities/linking/select-schema';

function table(name: string, columns: string[], primaryKey: string[], foreignKeys: [string, string, string][] = []): TableInfo {
  return {
    name,
    columns: columns.map((c) => ({ name: c, type: 'text', nullable: true, primaryKey: primaryKey.includes(c) })),
    primaryKey,
    foreignKeys: foreignKeys.map(([from, toTable, to]) => ({ fromTable: name, fromColumns: [from], toTable, toColumns: [to] })),
  };
}

// Spider's concert_singer, in small: singers and concerts meet only through a link table.
const schema: SchemaInfo = {
  dialect: 'sqlite',
  tables: [
    table('stadium', ['Stadium_ID', 'Location', 'Name', 'Capacity'], ['Stadium_ID']),
    table('singer', ['Singer_ID', 'Name', 'Country', 'Age'], ['Singer_ID']),
    table('concert', ['concert_ID', 'concert_Name', 'Year', 'Stadium_ID'], ['concert_ID'], [['Stadium_ID', 'stadium', 'Stadium_ID']]),
    table(
      'singer_in_concert',
      ['concert_ID', 'Singer_ID'],
      ['concert_ID', 'Singer_ID'],
      [
        ['concert_ID', 'concert', 'concert_ID'],
        ['Singer_ID', 'singer', 'Singer_ID'],
      ],
    ),
  ],
};
const foreignKeys = schema.tables.flatMap((t) => t.foreignKeys);

describe("the DecoSearch selector's completion (CHESS-style)", () => {
  it('keeps the columns the question filters on and the keys that join the selected tables, through the link table', () => {
    const { focus, added } = completeSelection({
      schema,
      foreignKeys,
      tables: ['singer', 'concert'],
      selected: [{ table: 'singer', columns: ['Name'] }],
      question: 'What are the names of singers who performed in a concert in 2014?',
      keywords: ['singers', 'concert', '2014'],
      valueMatches: [],
    });
    const kept = focus.flatMap((t) => t.columns.map((c) => `${t.table}.${c}`));
    // The model's column stays, and the keys of the path singer → singer_in_concert → concert join it.
    expect(kept).toEqual(
      expect.arrayContaining(['singer.Name', 'singer_in_concert.concert_ID', 'singer_in_concert.Singer_ID', 'singer.Singer_ID', 'concert.concert_ID']),
    );
    expect(added.every((a) => ['name', 'value', 'join'].includes(a.reason))).toBe(true);
    // Nothing unrelated: the stadium is on no path between the selected tables.
    expect(focus.map((t) => t.table)).not.toContain('stadium');
  });

  it('adds the column holding a value the question says, and joins its table to the selection', () => {
    const { focus, added } = completeSelection({
      schema,
      foreignKeys,
      tables: ['concert'],
      selected: [{ table: 'concert', columns: ['concert_Name'] }],
      question: 'Which concerts were held at Glebe Park?',
      keywords: ['concerts', 'Glebe Park'],
      valueMatches: [{ table: 'stadium', column: 'Location' }],
    });
    expect(added).toEqual(
      expect.arrayContaining([
        { table: 'stadium', column: 'Location', reason: 'value' },
        { table: 'concert', column: 'Stadium_ID', reason: 'join' },
        { table: 'stadium', column: 'Stadium_ID', reason: 'join' },
      ]),
    );
    expect(focus.find((t) => t.table === 'concert')!.columns).toEqual(['concert_Name', 'Stadium_ID']);
  });

  it('names a column the question says in a selected table, and only there', () => {
    const { added } = completeSelection({
      schema,
      foreignKeys,
      tables: ['singer'],
      selected: [{ table: 'singer', columns: ['Name'] }],
      question: 'List the names of singers older than 40 from France.',
      keywords: ['singers', 'age', 'France'],
      valueMatches: [],
    });
    expect(added).toEqual([{ table: 'singer', column: 'Age', reason: 'name' }]);
  });

  it('keeps a selected table the model listed no column of', () => {
    const { focus } = completeSelection({
      schema,
      foreignKeys,
      tables: ['stadium'],
      selected: [],
      question: 'How many are there?',
      keywords: [],
      valueMatches: [],
    });
    expect(focus).toEqual([{ table: 'stadium', columns: [] }]);
  });
});

describe('the column a returned name stands for', () => {
  it.each([
    ['singer.Name', { table: 'singer', column: 'Name' }],
    ['Name', { table: null, column: 'Name' }],
    ['COUNT(employee.Employee_ID)', { table: 'employee', column: 'Employee_ID' }],
    ['AVG(DISTINCT age)', { table: null, column: 'age' }],
    ['MAX(ROUND(t.price))', { table: 't', column: 'price' }],
    ['COUNT(*)', null],
    ['singer.*', null],
  ])('%s', (name, expected) => {
    expect(columnOfName(name)).toEqual(expected);
  });
});
