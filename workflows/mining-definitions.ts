import { defineQuery } from '@temporalio/workflow';
import type { MiningProgress } from '../core/mining/mining-types';

/** Progress of a mineRules job (what `decodex mine-rules` draws as its progress bar). */
export const miningProgressQuery = defineQuery<MiningProgress>('miningProgress');
