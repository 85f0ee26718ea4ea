import { performance } from 'node:perf_hooks';
import type { PreparationDeps } from '../prepared/preparation-deps';
import { loadStoredSchema, profileTable, type ProfileTableInput, type ProfileTableOutput } from './profile-table';

export interface ProfileTablesInput extends Omit<ProfileTableInput, 'table'> {
  /** Tables of one batch (core/preparation/work-batches), profiled one after another. */
  tables: string[];
}

export interface ProfileTablesOutput {
  tables: ProfileTableOutput[];
  elapsedMs: number;
}

/**
 * DexterSQL §3.1.1 for a batch of tables: each is profiled and stored in turn (profileTable),
 * so a retry finds the finished ones stored and skips them, and resumes the one in flight after
 * the last column its heartbeat recorded.
 */
export async function profileTables(deps: PreparationDeps, input: ProfileTablesInput): Promise<ProfileTablesOutput> {
  const started = performance.now();
  const { tables, ...rest } = input;
  const stored = await loadStoredSchema(deps, input);
  const outputs: ProfileTableOutput[] = [];
  for (const table of tables) outputs.push(await profileTable(deps, { ...rest, table }, stored));
  return { tables: outputs, elapsedMs: Math.round(performance.now() - started) };
}
