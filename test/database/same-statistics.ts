import type { TargetDatabase } from '../../activities/database/target-database';
import type { TableInfo } from '../../core/database/schema-types';
import { sameValue } from '../../devkit/same-rows';

type StorageClasses = (table: string, column: string) => number;

/**
 * A copy's table against its SQLite original: the same row count and, per column, the same row,
 * NULL and distinct counts; min and max too where the column holds one kind of value (SQLite
 * orders numbers before text). `columnName` maps an original column name to the copy's.
 */
export async function expectSameTableStatistics(
  copy: TargetDatabase,
  copyTable: string,
  original: TargetDatabase,
  originalTable: TableInfo,
  storageClasses: StorageClasses,
  columnName: (name: string) => string = (name) => name,
): Promise<void> {
  expect(await copy.rowCount(copyTable)).toBe(await original.rowCount(originalTable.name));
  for (const column of originalTable.columns) {
    const [m, l] = [await copy.columnStats(copyTable, columnName(column.name)), await original.columnStats(originalTable.name, column.name)];
    expect([column.name, m.rowCount, m.nullCount, m.distinctCount]).toEqual([column.name, l.rowCount, l.nullCount, l.distinctCount]);
    if (storageClasses(originalTable.name, column.name) <= 1)
      expect([column.name, sameValue(m.min, l.min), sameValue(m.max, l.max)]).toEqual([column.name, true, true]);
  }
}
