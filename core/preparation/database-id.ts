import { databaseLabel } from '../database-label';
import { stringHash64Hex } from '../string-hash';

/**
 * The identity of a prepared database: its label plus a hash of its spec, e.g.
 * `concert_singer-3fa2c1d9e07b`. Two files with the same name in different folders get
 * different ids; the spec (which may hold a password) never appears in it. Pure, so the client
 * (workflow ids), the workflow and the activities all compute the same id.
 */
export function preparedDatabaseId(spec: string): string {
  return `${databaseLabel(spec)}-${stringHash64Hex(spec).slice(0, 12)}`;
}
