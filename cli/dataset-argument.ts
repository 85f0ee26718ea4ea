import path from 'node:path';
import { isExampleFile } from '../core/knowledge/few-shot-job-types';

/**
 * A training-set argument as the workflow needs it: a named set as it is, a user's .jsonl file by
 * its absolute path, so a worker in another folder (or a resumed job) reads the same file.
 */
export function resolveDatasetArgument(value: string, cwd = process.cwd()): string {
  return isExampleFile(value) ? path.resolve(cwd, value) : value;
}
