import { loadPreparedIndices, retrieveColumns, DEFAULT_RETRIEVAL_OPTIONS, type PreparedIndices } from '../../activities/linking/retrieve-columns';
import { bridgeJoins } from '../../core/indexing/bridge-tables';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';
import { spiderDatabasePath } from '../../devkit/datasets';

/**
 * Spider's concert_singer: `singer_in_concert` (Singer_ID → singer, concert_ID → concert) is the
 * many-to-many link table a question about singers and concerts never names.
 */
describe('bridge tables between retrieved tables', () => {
  let harness: PreparationHarness;
  let indices: PreparedIndices;

  beforeAll(async () => {
    harness = startPreparationHarness();
    const { manifest } = await harness.index(spiderDatabasePath('concert_singer'));
    indices = await loadPreparedIndices(harness.store, manifest);
  });
  afterAll(() => harness.close());

  it('finds the link table that references both retrieved tables, with its join columns', () => {
    const steps = bridgeJoins(indices.foreignKeys, ['singer', 'concert']);
    expect(steps.map((s) => `${s.left}.${s.leftColumns.join(',')} -> ${s.right}.${s.rightColumns.join(',')}`).sort()).toEqual([
      'singer_in_concert.Singer_ID -> singer.Singer_ID',
      'singer_in_concert.concert_ID -> concert.concert_ID',
    ]);
  });

  it('adds nothing when no outside table references both, or the link table is already retrieved', () => {
    // concert references stadium directly: a direct join, not a bridge.
    expect(bridgeJoins(indices.foreignKeys, ['concert', 'stadium'])).toEqual([]);
    expect(bridgeJoins(indices.foreignKeys, ['singer', 'concert', 'singer_in_concert'])).toEqual([]);
    expect(bridgeJoins(indices.foreignKeys, ['singer'])).toEqual([]);
  });

  it('retrieval adds the link table between the singer and concert tables it found', async () => {
    // Two profile hits only, so the link table cannot come from the profile index itself; one-hop
    // joins and no name matches, so it cannot come from a join path either.
    const options = { ...DEFAULT_RETRIEVAL_OPTIONS, profileHitsPerSqrtColumn: 0, minProfileHits: 2, joinHops: 1, nameMatches: false };
    const found = await retrieveColumns(harness, indices, 'What are the names of the singers and the names of the concerts?', options);
    const tables = new Set(found.map((c) => c.table));
    expect(tables).toEqual(new Set(['singer', 'concert', 'singer_in_concert']));
    const bridged = found.filter((c) => c.reason === 'bridge').map((c) => `${c.table}.${c.column}`);
    expect(bridged).toEqual(expect.arrayContaining(['singer_in_concert.Singer_ID', 'singer_in_concert.concert_ID']));

    const without = await retrieveColumns(harness, indices, 'What are the names of the singers and the names of the concerts?', {
      ...options,
      bridgeTables: false,
    });
    expect(without.some((c) => c.table === 'singer_in_concert')).toBe(false);
    // Two-hop join paths find the same link table as a path between the two.
    const twoHops = await retrieveColumns(harness, indices, 'What are the names of the singers and the names of the concerts?', {
      ...options,
      bridgeTables: false,
      joinHops: 2,
    });
    expect(twoHops.filter((c) => c.table === 'singer_in_concert').map((c) => c.reason)).toEqual(['join', 'join']);
  });
});
