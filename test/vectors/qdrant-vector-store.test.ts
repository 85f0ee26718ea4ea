import { randomBytes } from 'node:crypto';
import { toQdrantFilter } from '../../activities/vectors/qdrant-filter';
import { qdrantPointId } from '../../activities/vectors/qdrant-point-id';
import { QdrantVectorStore } from '../../activities/vectors/qdrant-vector-store';
import { describeVectorStoreContract } from './vector-store.contract';

const url = process.env.QDRANT_URL;

if (url) {
  // One namespace per run, so a shared server's other collections are never touched.
  const namespace = `decodex_test_${randomBytes(4).toString('hex')}_`;
  describeVectorStoreContract('qdrant', async () => ({
    open: async () => new QdrantVectorStore({ url, apiKey: process.env.QDRANT_API_KEY, namespace, exactSearch: true }),
    dispose: async () => undefined,
  }));
} else {
  describe('VectorStore contract: qdrant', () => {
    it.skip('needs QDRANT_URL (no Qdrant server is configured)', () => undefined);
  });
}

describe('qdrantPointId', () => {
  it('maps a string id to the same RFC 4122 version-5 UUID every time, and different ids apart', () => {
    const id = qdrantPointId('concert_singer.singer.Name:Joe Sharp');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(qdrantPointId('concert_singer.singer.Name:Joe Sharp')).toBe(id);
    expect(qdrantPointId('concert_singer.singer.Name:Joe sharp')).not.toBe(id);
  });
});

describe('toQdrantFilter', () => {
  it('matches strings, integers and booleans exactly and pins floats with a closed range', () => {
    expect(toQdrantFilter({ db: 'geo', year: 2019, big: true, share: 0.5 })).toEqual({
      must: [
        { key: 'db', match: { value: 'geo' } },
        { key: 'year', match: { value: 2019 } },
        { key: 'big', match: { value: true } },
        { key: 'share', range: { gte: 0.5, lte: 0.5 } },
      ],
    });
  });
});
