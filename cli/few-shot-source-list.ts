import path from 'node:path';
import { FEW_SHOT_SOURCES } from '../activities/knowledge/few-shot-sources';
import { isExampleFile } from '../core/knowledge/few-shot-job-types';
import { stringHash64Hex } from '../core/string-hash';
import { resolveDatasetArgument } from './dataset-argument';

/**
 * `--sources` of `build-knowledge few-shot`: a comma-separated list of named training sets and
 * users' .jsonl files (`spider-train,./mine.jsonl`), files made absolute. Anything else is a
 * mistake the command reports before a job starts.
 */
export function parseFewShotSources(list: string, cwd = process.cwd()): string[] {
  const sources = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (sources.length === 0) throw new Error('--sources names no source');
  for (const s of sources) {
    if (!isExampleFile(s) && !(FEW_SHOT_SOURCES as readonly string[]).includes(s)) {
      throw new Error(`unknown few-shot source "${s}": use ${FEW_SHOT_SOURCES.join(', ')} or a .jsonl file of question, sql, database`);
    }
  }
  return sources.map((s) => resolveDatasetArgument(s, cwd));
}

/**
 * The job's id, the same for the same sources so the same command resumes it: the named sets and
 * the files' names, and, when there are files, a hash of their paths (two folders' `train.jsonl`
 * are two jobs).
 */
export function fewShotJobId(sources: string[]): string {
  const names = sources.map((s) => (isExampleFile(s) ? path.basename(s) : s)).join('+');
  return sources.some(isExampleFile) ? `few-shot-index-${names}-${stringHash64Hex(sources.join('\n')).slice(0, 8)}` : `few-shot-index-${names}`;
}
