import { parseConfigurations } from '../../bench/accuracy-configurations';

/** bench:accuracy's configuration lists: presets, ablations and settings, list-valued ones included. */
describe('bench:accuracy configurations', () => {
  it('splits a list on commas, keeping a list-valued setting with its configuration', () => {
    expect(parseConfigurations('hybrid@generation.paths=direct,dependency-tree,few-shot;judging.enabled=true,quick,dextersql:notes+dependency-tree')).toEqual([
      { preset: 'hybrid', ablations: [], overrides: { generation: { paths: ['direct', 'dependency-tree', 'few-shot'] }, judging: { enabled: true } } },
      { preset: 'quick', ablations: [] },
      { preset: 'dextersql', ablations: ['notes', 'dependency-tree'] },
    ]);
    expect(parseConfigurations('')).toEqual([]);
  });

  it('refuses a bad name or value before any work, naming the valid ones', () => {
    expect(() => parseConfigurations('hybrid,fastest')).toThrow(/^unknown preset "fastest"; valid presets: dextersql, decosearch, quick, hybrid$/);
    expect(() => parseConfigurations('hybrid@generation.paths=direct,magic')).toThrow(/generation.paths must be one of direct, dependency-tree/);
    expect(() => parseConfigurations('dextersql:judger')).toThrow(/removes nothing from preset "dextersql"/);
  });
});
