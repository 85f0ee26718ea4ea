import { parseArgs } from 'node:util';
import { ABLATIONS, ABLATION_NAMES, pipelineLabel } from '../../core/pipeline/pipeline-config';
import type { Command } from './command';
import { PIPELINE_OPTIONS, PIPELINE_USAGE, pipelineFromOptions } from './pipeline-options';

/**
 * `decodex pipeline`: the configuration a preset, ablations and `--set` overrides resolve to, as
 * a run would use it. Needs no server: it is how to check an ablation or a sweep before paying for it.
 */
async function pipeline(_config: unknown, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...PIPELINE_OPTIONS, json: { type: 'boolean' } } });
  const { config } = pipelineFromOptions(values);
  const resolved = { label: pipelineLabel(config), ...config, removed: config.ablations.map((a) => ({ ablation: a, removes: ABLATIONS[a].removes })) };
  if (values.json) {
    console.log(JSON.stringify(resolved, null, 2));
    return 0;
  }
  const { label, removed, preset: _p, ablations: _a, overrides: _o, ...sections } = resolved;
  const lines = [`pipeline: ${label}`, ...removed.map((r) => `  without ${r.removes}`)];
  for (const [section, settings] of Object.entries(sections))
    for (const [key, value] of Object.entries(settings as object)) lines.push(`${section}.${key} = ${Array.isArray(value) ? value.join(',') : String(value)}`);
  lines.push('', 'ablations (--ablation):', ...ABLATION_NAMES.map((a) => `  ${a.padEnd(20)} removes ${ABLATIONS[a].removes}`));
  console.log(lines.join('\n'));
  return 0;
}

export const pipelineCommand: Command = {
  name: 'pipeline',
  examples: [
    'npx decodex pipeline --preset decosearch',
    'npx decodex pipeline --preset dextersql --ablation notes --set selection.confidenceThreshold=0.8 --json',
  ],
  usage: `pipeline ${PIPELINE_USAGE} [--json]   print the resolved configuration (no server needed)`,
  run: pipeline,
};
