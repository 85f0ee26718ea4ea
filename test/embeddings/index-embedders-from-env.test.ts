import { ConcatenatedEmbedder } from '../../activities/embeddings/concatenated-embedder';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { MiniLmEmbedder } from '../../activities/embeddings/minilm-embedder';
import { OpenAiEmbedder } from '../../activities/embeddings/openai-embedder';
import { embedderChoice, indexEmbeddersFromEnv } from '../../activities/indexing/index-backends';

describe('DECODEX_EMBEDDER', () => {
  it('minilm embeds profiles (as sentences) with the neural model blended with the hashed one, and values with the hashed one', () => {
    const { profiles, profileText, values } = indexEmbeddersFromEnv({ DECODEX_EMBEDDER: 'minilm' });
    expect(profiles).toBeInstanceOf(ConcatenatedEmbedder);
    expect(profiles.name).toBe(`${new HashedEmbedder().name}@0.50+${new MiniLmEmbedder().name}@0.50`);
    expect(profiles.dimension).toBe(256 + 384);
    expect(profileText).toBe('sentences');
    expect(values).toBeInstanceOf(HashedEmbedder);
  });

  it('hashed and openai use one embedder for both indices', () => {
    const hashed = indexEmbeddersFromEnv({ DECODEX_EMBEDDER: 'hashed' });
    expect(hashed.profiles).toBeInstanceOf(HashedEmbedder);
    expect(hashed.values).toBe(hashed.profiles);
    const openai = indexEmbeddersFromEnv({ DECODEX_EMBEDDER: 'openai', DECODEX_EMBEDDING_MODEL: 'm', DECODEX_EMBEDDING_DIMENSION: '8' });
    expect(openai.profiles).toBeInstanceOf(OpenAiEmbedder);
    expect(openai.values).toBe(openai.profiles);
  });

  it('defaults to minilm when its model is installed, else hashed; an embeddings endpoint alone means openai', () => {
    expect(embedderChoice({}, true)).toBe('minilm');
    expect(embedderChoice({}, false)).toBe('hashed');
    expect(embedderChoice({ DECODEX_EMBEDDING_MODEL: 'text-embedding-3-small' }, true)).toBe('openai');
  });

  it('names the valid embedders when the value is unknown or incomplete', () => {
    expect(() => indexEmbeddersFromEnv({ DECODEX_EMBEDDER: 'bert' })).toThrow('DECODEX_EMBEDDER=bert is not an embedder; choose one of minilm, hashed, openai');
    expect(() => indexEmbeddersFromEnv({ DECODEX_EMBEDDER: 'openai' })).toThrow(/needs DECODEX_EMBEDDING_MODEL/);
  });
});
