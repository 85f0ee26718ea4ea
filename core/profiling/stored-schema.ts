import type { SchemaInfo } from '../database/schema-types';
import type { TableOverview } from '../preparation/preparation-types';
import type { DatabaseDocumentation } from './documentation';

/**
 * The schema as read once per profile version (inspection stores it): profiling and every later
 * step read this, not the database.
 */
export interface StoredSchema {
  schema: SchemaInfo;
  documentation: DatabaseDocumentation | null;
  tables: TableOverview[];
}
