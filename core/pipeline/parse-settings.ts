import { DEFAULT_PRESET, PRESET_NAMES, PRESETS, PipelineConfigError, type PipelineOverrides, type PresetName } from './pipeline-config';

/**
 * `--set section.key=value` (repeatable) as pipeline overrides. A value is read by the type of the
 * preset's default for that key: `true`/`false`, a number, a comma-separated list, or text (an
 * enum). Only the spelling is read here; what is valid (known keys, ranges, enum members) is
 * checked by resolvePipelineConfig, whose errors list the valid choices. So a value that does not
 * read as its type (`enabled=yes`) is passed on as text and refused there, by the same check as a
 * service's JSON.
 */
export function parseSettings(assignments: string[], preset: string | undefined): PipelineOverrides {
  const defaults = PRESETS[(PRESET_NAMES as string[]).includes(preset ?? DEFAULT_PRESET) ? ((preset ?? DEFAULT_PRESET) as PresetName) : DEFAULT_PRESET];
  const overrides: Record<string, Record<string, unknown>> = {};
  for (const assignment of assignments) {
    const m = /^\s*([A-Za-z]+)\.([A-Za-z]+)\s*=(.*)$/.exec(assignment);
    if (!m) throw new PipelineConfigError(`--set takes section.key=value (e.g. selection.confidenceThreshold=0.8), got ${JSON.stringify(assignment)}`);
    const [, section, key, raw] = m;
    const current = (defaults as unknown as Record<string, Record<string, unknown> | undefined>)[section]?.[key];
    (overrides[section] ??= {})[key] = readAs(current, raw.trim());
  }
  return overrides as PipelineOverrides;
}

function readAs(example: unknown, raw: string): unknown {
  if (Array.isArray(example)) return raw === '' ? [] : raw.split(',').map((v) => v.trim());
  if (typeof example === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (typeof example === 'number') return raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return raw;
}
