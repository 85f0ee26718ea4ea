import { embedderNames } from '../../activities/embeddings/index-embedders';
import { indexEmbeddersFromEnv } from '../../activities/indexing/index-backends';
import { MiniLmEmbedder } from '../../activities/embeddings/minilm-embedder';
import { collectionNames } from '../../activities/prepared/preparation-artifacts';
import { preparationVersions, type VersionInputs } from '../../activities/preparation/preparation-versions';
import { resolvePreparationConfig } from '../../core/preparation/preparation-config';

/** The MiniLM embedder's name while it ran the F16 GGUF (before the file became Q8_0). */
const F16_MINILM_NAME = 'minilm-l6-v2-f16-mean';

describe('preparation versions and the embedders', () => {
  it('vectors of the F16 MiniLM model are never mixed with the Q8_0 model: another index version, other collections, the same profiles', () => {
    const current = embedderNames(indexEmbeddersFromEnv({ DECODEX_EMBEDDER: 'minilm' }));
    const minilm = new MiniLmEmbedder().name;
    // The Q8_0 file's vectors differ slightly from the F16 file's (cosine ~0.9996): a new name.
    expect(minilm).not.toBe(F16_MINILM_NAME);
    expect(current.profiles).toContain(minilm);
    const f16 = { ...current, profiles: current.profiles.replace(minilm, F16_MINILM_NAME) };

    const inputs = (embedders: VersionInputs['embedders']): VersionInputs => ({
      databaseId: 'concert_singer',
      fingerprint: 'same-content',
      documentation: null,
      config: resolvePreparationConfig(),
      embedders,
    });
    const before = preparationVersions(inputs(f16));
    const after = preparationVersions(inputs(current));

    expect(after.profile).toBe(before.profile); // profiling does not embed: nothing to redo there
    expect(after.index).not.toBe(before.index);
    expect(after.exploration).not.toBe(before.exploration);
    const [oldCollections, newCollections] = [collectionNames('concert_singer', before), collectionNames('concert_singer', after)];
    expect(newCollections.profiles).not.toBe(oldCollections.profiles);
    expect(newCollections.values).not.toBe(oldCollections.values);
  });
});
