import { parseSettings } from '../../core/pipeline/parse-settings';
import { resolvePipelineConfig, type PipelineConfig, type PipelineOverrides } from '../../core/pipeline/pipeline-config';
import { UsageError } from './command';

/** The options that choose a run's pipeline, shared by every command that answers questions. */
export const PIPELINE_OPTIONS = {
  preset: { type: 'string' },
  ablation: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
} as const;

export const PIPELINE_USAGE = '[--preset P] [--ablation A]... [--set section.key=value]...';

/** What a workflow input carries (only what was given, so defaults stay the worker's). */
export interface PipelineChoice {
  preset?: string;
  ablations?: string[];
  pipeline?: PipelineOverrides;
}

/**
 * The pipeline the options describe, checked before anything starts: a mistake is a usage error
 * naming the valid choices (resolvePipelineConfig's message).
 */
export function pipelineFromOptions(values: { preset?: string; ablation?: string[]; set?: string[] }): { choice: PipelineChoice; config: PipelineConfig } {
  try {
    const pipeline = values.set?.length ? parseSettings(values.set, values.preset) : undefined;
    const choice: PipelineChoice = {
      ...(values.preset ? { preset: values.preset } : {}),
      ...(values.ablation?.length ? { ablations: values.ablation } : {}),
      ...(pipeline ? { pipeline } : {}),
    };
    return { choice, config: resolvePipelineConfig(choice.preset, choice.ablations, choice.pipeline) };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
