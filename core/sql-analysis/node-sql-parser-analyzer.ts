import type { Parser } from 'node-sql-parser';
import { analyzeStatements } from './analyze-statements';
import { NodeSqlParserOutliner } from './node-sql-parser-outline';
import type { QueryOutline } from './query-model';
import { syntaxErrorAt } from './source-position';
import { splitAtIntersectExcept } from './split-compound-select';
import type { SchemaHint, SqlAnalysis, SqlAnalyzer, SqlDialect } from './sql-analyzer';

/** `node-sql-parser` (pure JavaScript, PEG grammars per dialect). */
export async function createNodeSqlParserAnalyzer(): Promise<SqlAnalyzer> {
  // Loaded here, not at import: its grammars take about 70 MB of every process that merely
  // imports the SQL analysis, and only bench:sql-parse ever runs this analyzer.
  const { Parser: NodeSqlParser } = require('node-sql-parser') as typeof import('node-sql-parser');
  const parser = new NodeSqlParser();
  return { name: 'node_sql_parser', analyze: (sql, dialect, schema) => analyzeWithNodeSqlParser(parser, sql, dialect, schema) };
}

function analyzeWithNodeSqlParser(parser: Parser, sql: string, dialect: SqlDialect, schema?: SchemaHint): SqlAnalysis {
  const outliner = new NodeSqlParserOutliner(dialect);
  // The grammar lacks INTERSECT / EXCEPT: parse each side separately and rejoin them as one compound.
  const parts = splitAtIntersectExcept(sql, dialect === 'mysql');
  const branches: QueryOutline[] = [];
  for (const part of parts) {
    // The parser trims leading whitespace and reports offsets into what is left.
    const text = part.text.trimStart();
    const start = part.offset + part.text.length - text.length;
    let ast: unknown;
    try {
      ast = parser.astify(text, { database: dialect === 'postgres' ? 'postgresql' : dialect });
    } catch (e) {
      const location = (e as { location?: { start?: { offset?: number } } }).location;
      const offset = location?.start?.offset;
      const message = conciseMessage(e instanceof Error ? e.message : String(e));
      return { ok: false, error: syntaxErrorAt(sql, message, offset === undefined ? undefined : start + offset) };
    }
    const outlines = (Array.isArray(ast) ? ast : [ast]).map((statement) => outliner.query(statement));
    // Anything but one query per part is reported the same way as for unsplit SQL.
    if (parts.length === 1 || outlines.length !== 1 || !outlines[0]) return analyzeStatements(outlines, schema);
    branches.push(outlines[0]);
  }
  // A WITH before the first branch belongs to the whole compound.
  const ctes = branches[0].ctes;
  branches[0] = { ...branches[0], ctes: [] };
  return analyzeStatements([{ kind: 'compound', ctes, branches, refs: [] }], schema);
}

/** The PEG message lists every token the grammar would accept (often fifty); the found one is what helps. */
function conciseMessage(message: string): string {
  const m = /^Expected [\s\S]+ but ([\s\S]+) found\.$/.exec(message);
  return m ? `Unexpected ${m[1]}` : message;
}
