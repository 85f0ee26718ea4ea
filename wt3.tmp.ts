import { readFileSync } from 'node:fs';
import { columnOfOtherTable } from './activities/correction/checks/column-of-other-table';
const lines = readFileSync('/work/scratch/wrongtable-cases.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
let fixed = 0, joins = 0;
for (const c of lines) {
  const f = columnOfOtherTable({ question: '', sql: c.sql, schema: c.schema, analysis: null as never, analyze: null as never, execution: { ok: false, kind: 'sql_error', message: c.message } });
  if (!f?.fix) continue;
  fixed++;
  if (f.fix.description.includes('JOIN')) { joins++; console.log(c.db, '|', c.sql.slice(0, 200), '\n  ->', f.fix.sql.slice(0, 260)); }
}
console.log({ cases: lines.length, fixed, joins });
