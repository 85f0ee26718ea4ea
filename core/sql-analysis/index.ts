export type {
  ColumnReference,
  SchemaHint,
  SqlAnalysis,
  SqlAnalysisFailure,
  SqlAnalysisSuccess,
  SqlAnalyzer,
  SqlDialect,
  SqlLiteral,
  SqlSyntaxError,
} from './sql-analyzer';
export { createSqlAnalyzer, CHOSEN_SQL_ANALYZER, SQL_ANALYZER_FACTORIES } from './create-sql-analyzer';
