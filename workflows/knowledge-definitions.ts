import { defineQuery } from '@temporalio/workflow';
import type { DecompositionKbProgress } from '../core/knowledge/decomposition-kb-types';

/** Progress of a buildDecompositionKnowledge job. */
export const decompositionKbProgressQuery = defineQuery<DecompositionKbProgress>('decompositionKbProgress');
