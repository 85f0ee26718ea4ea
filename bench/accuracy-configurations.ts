import { parseSettings } from '../core/pipeline/parse-settings';
import { PRESET_NAMES, resolvePipelineConfig, type PipelineOverrides } from '../core/pipeline/pipeline-config';

/** One row of the accuracy table: a preset, the ablations switched off, the settings changed. */
export interface Configuration {
  preset: string;
  ablations: string[];
  overrides?: PipelineOverrides;
}

/** `hybrid:correction+selection@selection.confidenceThreshold=0.8` → hybrid, both switched off, one setting changed. */
export function parseConfiguration(spec: string): Configuration {
  const [head, settings = ''] = spec.split('@');
  const [preset, ablations = ''] = head.split(':');
  const assignments = settings.split(';').filter(Boolean);
  const configuration = {
    preset,
    ablations: ablations.split('+').filter(Boolean),
    ...(assignments.length ? { overrides: parseSettings(assignments, preset) } : {}),
  };
  resolvePipelineConfig(configuration.preset, configuration.ablations, configuration.overrides); // a bad name or value stops here, before any work
  return configuration;
}

/**
 * A comma-separated list of configurations. Every configuration starts with a preset name, so a
 * piece that does not, after one with settings, is the rest of a list-valued setting:
 * `hybrid@generation.paths=direct,few-shot,quick` is hybrid with two paths, then quick.
 */
export function parseConfigurations(list: string): Configuration[] {
  const starts = new RegExp(`^(${PRESET_NAMES.join('|')})(?=$|[:@])`);
  const specs: string[] = [];
  for (const piece of list.split(',')) {
    if (!piece) continue;
    if (specs.length && specs[specs.length - 1].includes('@') && !starts.test(piece)) specs[specs.length - 1] += `,${piece}`;
    else specs.push(piece);
  }
  return specs.map(parseConfiguration);
}
