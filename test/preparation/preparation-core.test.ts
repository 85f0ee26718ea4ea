import { findCandidatePairs, type CandidateColumn } from '../../core/exploration/candidate-pairs';
import { findJoinPath, orientFromKeySide, describePath } from '../../core/exploration/join-paths';
import { groupPairFamilies } from '../../core/exploration/pair-families';
import { majorityAmbiguous } from '../../core/exploration/triage-vote';
import { inferJoinKeys } from '../../core/indexing/inferred-joins';
import { renderProfileIndexText } from '../../core/indexing/retrieval-text';
import { LexicalValueIndex, normalizeValue } from '../../core/indexing/lexical-value-index';
import { mapWithConcurrency } from '../../core/map-with-concurrency';
import { pairId } from '../../core/preparation/column-ref';
import { RunBudget } from '../../core/budget';
import { preparedDatabaseId } from '../../core/preparation/database-id';
import { hasIdentifierName, nameTokenOverlap, nameTokens } from '../../core/preparation/name-tokens';
import { DEFAULT_PREPARATION_CONFIG, resolvePreparationConfig, resolvePreparationLimits } from '../../core/preparation/preparation-config';
import { buildColumnProfile } from '../../core/profiling/build-column-profile';
import type { ColumnProfile } from '../../core/profiling/column-profile';
import { columnDocumentation, parseBirdDescriptionCsv, parseJsonDocumentation } from '../../core/profiling/documentation';
import { renderColumnProfile, renderColumnProfileLine } from '../../core/profiling/profile-text';
import { seededRanks } from '../../core/profiling/seeded-sample';
import { inferValueFormat } from '../../core/profiling/value-format';

function profile(table: string, column: string, extra: Partial<ColumnProfile> = {}): ColumnProfile {
  const built = buildColumnProfile({
    table,
    column: { name: column, type: 'TEXT', primaryKey: false },
    references: null,
    cardinality: { rowCount: 3, nonNullCount: 3, distinctCount: 2, min: 'a', max: 'b' },
    valueCounts: [
      { value: 'a', count: 2 },
      { value: 'b', count: 1 },
    ],
    sample: ['b', 'a'],
    documentation: null,
    config: DEFAULT_PREPARATION_CONFIG.profile,
  });
  return { ...built, ...extra };
}

/** An integer primary key with one null in four rows, documented as `description`. */
function patientId(description: string): ColumnProfile {
  return buildColumnProfile({
    table: 'Patient',
    column: { name: 'ID', type: 'INTEGER', primaryKey: true },
    references: null,
    cardinality: { rowCount: 4, nonNullCount: 3, distinctCount: 3, min: 1, max: 3 },
    valueCounts: [1, 2, 3].map((value) => ({ value, count: 1 })),
    sample: [3, 1, 2],
    documentation: { description },
    config: DEFAULT_PREPARATION_CONFIG.profile,
  });
}

describe('name tokens (§3.1.3 Step 1)', () => {
  it('splits camelCase, snake_case and digits, folds plurals and common abbreviations', () => {
    expect(nameTokens('customerID')).toEqual(['customer', 'id']);
    expect(nameTokens('Num_of_Orders')).toEqual(['number', 'of', 'order']);
    expect(nameTokens('address2Line')).toEqual(['address', '2', 'line']);
    expect(nameTokens('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    // Words that are also Object.prototype members (formula_1 has constructorId) stay words.
    expect(nameTokens('constructorId')).toEqual(['constructor', 'id']);
  });

  it('measures overlap as the Jaccard of token sets and recognises identifier names', () => {
    expect(nameTokenOverlap('home_team_goals', 'HomeTeamGoals')).toBe(1);
    expect(nameTokenOverlap('concert_Name', 'Name')).toBe(0.5);
    expect(nameTokenOverlap('x', '')).toBe(0);
    expect(hasIdentifierName('student_id')).toBe(true);
    expect(hasIdentifierName('ID')).toBe(true);
    expect(hasIdentifierName('idea')).toBe(false);
  });
});

describe('column profiles (§3.1.1)', () => {
  it('infers the format values have, whatever their declared type', () => {
    expect(inferValueFormat(['2010-01-02', '2011-12-31', null]).format).toBe('date');
    expect(inferValueFormat(['12', '13', '007']).format).toBe('integer_as_text');
    expect(inferValueFormat([1, 2, 2010])).toEqual({ format: 'integer', consistency: 1 });
    expect(inferValueFormat(['LAX', 'JFK', 'SFO']).format).toBe('code');
    expect(inferValueFormat([]).format).toBe('empty');
  });

  it('samples k distinct ranks of all the distinct values, reproducibly, spread over the whole range', () => {
    const ranks = seededRanks(100_000, 10, 'city.name');
    expect(new Set(ranks).size).toBe(10);
    expect(ranks.every((r) => Number.isInteger(r) && r >= 1 && r <= 100_000)).toBe(true);
    expect(seededRanks(100_000, 10, 'city.name')).toEqual(ranks);
    expect(seededRanks(100_000, 10, 'city.country')).not.toEqual(ranks);
    expect(Math.max(...ranks)).toBeGreaterThan(1_000); // not the first values of the order
    expect(seededRanks(3, 10, 'x')).toEqual([1, 2, 3]);
    // Uniform: over many columns each tenth of the range gets about a tenth of the draws.
    const tenths = new Array(10).fill(0);
    for (let c = 0; c < 500; c++) for (const r of seededRanks(1000, 10, `t.c${c}`)) tenths[Math.floor((r - 1) / 100)]++;
    for (const n of tenths) expect(Math.abs(n - 500)).toBeLessThan(100);
  });

  it('keeps counts, frequent values seen more than once, key-likeness and documentation', () => {
    const p = patientId('identification of the patient');
    expect(p).toMatchObject({ nullCount: 1, range: 2, uniqueness: 1, identifier: true, textual: false, mostFrequent: [], format: 'integer' });
    expect(renderColumnProfile(p)).toContain('Description: identification of the patient');
    const diagnosis = profile('Patient', 'Diagnosis');
    expect(diagnosis).toMatchObject({ identifier: false, textual: true, mostFrequent: [{ value: 'a', count: 2 }] });
  });

  it('says a profile in one line: meaning and keys, format and cardinality, then a range for numbers or clipped examples for text', () => {
    const id = patientId('identification\nof the patient');
    expect(renderColumnProfileLine(id)).toBe('Patient.ID: identification of the patient; primary key; integer, unique: 3 distinct of 4 rows, 1 null; 1 to 3');
    const long = 'x'.repeat(60);
    const text = profile('Lab', 'Result', { mostFrequent: [{ value: "it's high", count: 2 }], sample: [long, 'b', 'c', 'd'] });
    const line = renderColumnProfileLine(text);
    expect(line).toMatch(/^Lab\.Result: text, categorical: 2 distinct of 3 rows; e\.g\. 'it''s high'$/);
    // No frequent values: the sample's first few, each clipped.
    const sampled = renderColumnProfileLine({ ...text, mostFrequent: [] });
    expect(sampled).toContain(`e.g. '${'x'.repeat(39)}…', 'b', 'c'`);
    expect(sampled).not.toContain("'d'");
    // The full profile says the same facts over several lines, at several times the length.
    expect(line.split('\n')).toHaveLength(1);
    expect(renderColumnProfile(text).split('\n').length).toBeGreaterThan(3);
  });

  it('reads BIRD description CSVs (BOM, quoted line breaks) and the JSON form', () => {
    const csv =
      '\uFEFForiginal_column_name,column_name,column_description,data_format,value_description\r\n' +
      'ID,,identification of the patient,integer,\r\n' +
      'SEX ,sex,Sex,text,"F: female;\nM: male"\r\n';
    expect(parseBirdDescriptionCsv(csv)).toEqual({
      id: { description: 'identification of the patient', format: 'integer' },
      sex: { fullName: 'sex', description: 'Sex', format: 'text', values: 'F: female; M: male' },
    });
    const docs = parseJsonDocumentation({ tables: { Patient: { description: 'one row per patient', columns: { Diagnosis: 'final diagnosis' } } } });
    expect(docs.tables.patient).toEqual({ description: 'one row per patient', columns: { diagnosis: { description: 'final diagnosis' } } });
    expect(() => parseJsonDocumentation({ tables: { T: { columns: { c: 3 } } } })).toThrow(/T\.c/);
    expect(columnDocumentation(docs, 'constructor', 'toString')).toBeNull();
    expect(columnDocumentation(docs, 'PATIENT', 'diagnosis')).toEqual({ description: 'final diagnosis' });
  });
});

describe('profile index text (§3.1.2 Embed(Profile))', () => {
  const city = profile('Airports', 'CityName', {
    declaredType: 'VARCHAR(40)',
    format: 'text',
    sample: ['Aberdeen', 'Boston'],
    documentation: { description: 'city served' },
  });

  it('embeds the profile (names, description, type, value format, sample values) in stemmed terms', () => {
    expect(renderProfileIndexText(city, 'profile').split(' ')).toEqual(
      expect.arrayContaining(['airport', 'citi', 'name', 'serv', 'varchar', '40', 'text', 'aberdeen', 'boston']),
    );
  });

  it('or the names and documentation only', () => {
    const names = renderProfileIndexText(city, 'names');
    expect(names).toContain('serv');
    expect(names).not.toMatch(/aberdeen|varchar|\btext\b/);
  });

  it('refuses an unknown profile index text', () => {
    expect(() => resolvePreparationConfig({ index: { profileText: 'everything' as never } })).toThrow(/index.profileText must be one of names, profile/);
  });
});

describe('candidate pairs, join paths, families, votes (§3.1.3)', () => {
  const unit = (v: number[]) => Float32Array.from(v.map((x) => x / Math.hypot(...v)));
  const column = (p: ColumnProfile, signature: number[]): CandidateColumn => ({ profile: p, signature: unit(signature) });

  it('proposes same-named and similar columns, never identifiers or declared key pairs, within the bound', () => {
    const columns = [
      column(profile('Patient', 'Diagnosis'), [1, 0, 0]),
      column(profile('Examination', 'Diagnosis'), [0, 1, 0]),
      column(profile('Examination', 'Result'), [0.99, 0.1, 0]),
      column(profile('Patient', 'ID', { identifier: true }), [0, 0, 1]),
      column(profile('Examination', 'ID', { identifier: true }), [0, 0, 1]),
      column(profile('Examination', 'PatientName', { references: { table: 'Patient', column: 'Name' } }), [0, 0, 1]),
      column(profile('Patient', 'Name'), [0, 0, 1]),
    ];
    const found = findCandidatePairs(columns, resolvePreparationConfig({ exploration: { profileSimilarityThreshold: 0.95 } }).exploration);
    expect(found.candidates.map((c) => [c.id, c.reasons])).toEqual([
      ['Examination.Diagnosis~Patient.Diagnosis', ['same_name']],
      ['Examination.Result~Patient.Diagnosis', ['profile_similarity']],
    ]);
    const capped = findCandidatePairs(
      columns,
      resolvePreparationConfig({ exploration: { profileSimilarityThreshold: 0.95, maxCandidatePairs: 1 } }).exploration,
    );
    expect(capped).toMatchObject({ cut: 1, candidates: [{ id: 'Examination.Diagnosis~Patient.Diagnosis' }] });
  });

  it('finds the shortest PK/FK path and starts it from the key side', () => {
    const fks = [
      { fromTable: 'Examination', fromColumns: ['ID'], toTable: 'Patient', toColumns: ['ID'] },
      { fromTable: 'Laboratory', fromColumns: ['ID'], toTable: 'Patient', toColumns: ['ID'] },
    ];
    const direct = findJoinPath(fks, 'Examination', 'Patient', 3)!;
    expect(describePath(direct)).toBe('Examination.ID = Patient.ID');
    const oriented = orientFromKeySide(direct);
    expect(oriented.reversed).toBe(true);
    expect(describePath(oriented.path)).toBe('Patient.ID = Examination.ID');
    // Two tables referencing a third: neither end is a key side, the path stays as found.
    const siblings = findJoinPath(fks, 'Examination', 'Laboratory', 3)!;
    expect(describePath(siblings)).toBe('Examination.ID = Patient.ID → Patient.ID = Laboratory.ID');
    expect(orientFromKeySide(siblings).reversed).toBe(false);
    expect(findJoinPath(fks, 'Examination', 'Laboratory', 1)).toBeNull();
    expect(findJoinPath(fks, 'Patient', 'Nowhere', 3)).toBeNull();
  });

  it('groups pairs that share columns into one family and votes by majority', () => {
    const ref = (t: string, c: string) => ({ table: t, column: c });
    const pair = (a: [string, string], b: [string, string]) => ({ id: pairId(ref(...a), ref(...b)), a: ref(...a), b: ref(...b) });
    const families = groupPairFamilies([pair(['A', 'name'], ['B', 'name']), pair(['C', 'x'], ['D', 'x']), pair(['B', 'name'], ['C', 'name'])]);
    expect(families.map((f) => f.columns.map((c) => `${c.table}.${c.column}`))).toEqual([
      ['A.name', 'B.name', 'C.name'],
      ['C.x', 'D.x'],
    ]);
    const verdict = (ambiguous: boolean) => ({ level: 'profiles' as const, ambiguous, reason: '' });
    expect(majorityAmbiguous([verdict(true), verdict(false), verdict(true)])).toBe(true);
    expect(majorityAmbiguous([verdict(true), verdict(false), verdict(false)])).toBe(false);
  });
});

describe('lexical value index (§3.1.2)', () => {
  const index = new LexicalValueIndex({
    columns: [
      { table: 'schools', column: 'County', textual: true, values: ['Alameda County', 'New York', 'Colour-TV'] },
      { table: 'schools', column: 'Type', textual: true, values: ['Elementary School', 'High School'] },
      { table: 'games', column: 'Year', textual: false, values: ['2010', '2011'] },
    ],
  });

  it('matches a literal written in another case or punctuation exactly', () => {
    expect(normalizeValue("  Colour-TV's ")).toBe('colour tvs');
    expect(index.exact('new york')).toEqual([{ table: 'schools', column: 'County', value: 'New York', score: 1, exact: true }]);
    expect(index.exact('colour tv').map((h) => h.value)).toEqual(['Colour-TV']);
    expect(index.exact('2010').map((h) => h.column)).toEqual(['Year']);
  });

  it('finds near spellings of text values, and numbers only exactly', () => {
    expect(index.fuzzy('elementry school', 0.6, 3)[0]).toMatchObject({ value: 'Elementary School', exact: false });
    expect(index.fuzzy('2012', 0.3, 5)).toEqual([]);
  });
});

describe('inferred join keys (retrieval)', () => {
  const key = { primaryKey: true, identifier: true, uniqueness: 1, nonNullCount: 4 };
  const profiles = [
    profile('airlines', 'uid', key),
    profile('airlines', 'Airline'),
    profile('flights', 'Airline', { nonNullCount: 6 }),
    profile('flights', 'FlightNo', { nonNullCount: 6 }),
    profile('flights', 'SourceAirport', { references: { table: 'airports', column: 'AirportCode' } }),
  ];
  const lexicon = {
    columns: [
      { table: 'airlines', column: 'uid', textual: false, values: ['1', '2', '3', '4'] },
      { table: 'airlines', column: 'Airline', textual: true, values: ['United', 'Delta', 'JetBlue', 'Frontier'] },
      { table: 'flights', column: 'Airline', textual: false, values: ['1', '2', '4'] },
      { table: 'flights', column: 'FlightNo', textual: false, values: ['1', '2', '3'] },
      { table: 'flights', column: 'SourceAirport', textual: true, values: ['ABZ', 'ASY', 'APG'] },
    ],
  };

  it('joins a column to a key holding all its values when a name word ties them', () => {
    expect(inferJoinKeys(profiles, lexicon, [])).toEqual([{ fromTable: 'flights', fromColumns: ['Airline'], toTable: 'airlines', toColumns: ['uid'] }]);
  });

  it('needs every value to be a key value, and skips tables already joined by a declared key', () => {
    const missing = { columns: lexicon.columns.map((c) => (c.column === 'Airline' && c.table === 'flights' ? { ...c, values: ['1', '2', '9'] } : c)) };
    expect(inferJoinKeys(profiles, missing, [])).toEqual([]);
    expect(inferJoinKeys(profiles, lexicon, [{ fromTable: 'flights', fromColumns: ['x'], toTable: 'airlines', toColumns: ['uid'] }])).toEqual([]);
  });
});

describe('preparation plumbing', () => {
  it('names a database by label and a hash of its spec, without a password', () => {
    const id = preparedDatabaseId('mysql://reader:secret@db:3306/shop');
    expect(id).toMatch(/^shop-[0-9a-f]{12}$/);
    expect(id).not.toContain('secret');
    expect(preparedDatabaseId('/a/shop.sqlite')).not.toBe(preparedDatabaseId('/b/shop.sqlite'));
  });

  it('refuses limits and thresholds that would silently mean "unbounded"', () => {
    expect(() => resolvePreparationLimits({ maxLlmCalls: 0 })).toThrow(/maxLlmCalls/);
    expect(() => resolvePreparationConfig({ exploration: { nameOverlapThreshold: 2 } })).toThrow(/nameOverlapThreshold/);
    expect(() => resolvePreparationConfig({ index: { valuesPerColumn: 1.5 } })).toThrow(/valuesPerColumn/);
  });

  it('spends the model budget call by call; cached answers are free; a refused step says why', () => {
    const call = (cacheHit: boolean) => ({ role: 'triager', model: 'm', promptTokens: 10, completionTokens: 2, latencyMs: 1, cacheHit });
    // What the step runner does around a paid step: refuse or reserve, then record what it used.
    const spend = (budget: RunBudget, calls: number, used: ReturnType<typeof call>[]): boolean => {
      if (budget.refuse(calls)) return false;
      const release = budget.reserve(calls);
      budget.record(used);
      release();
      return true;
    };
    const budget = new RunBudget({ maxLlmCalls: 3, maxTokens: 1_000 }, () => 0);
    expect(spend(budget, 3, [call(true), call(true), call(true)])).toBe(true);
    expect(spend(budget, 3, [call(false), call(false), call(false)])).toBe(true);
    expect(budget.stoppedBy).toBeUndefined();
    expect(spend(budget, 1, [call(false)])).toBe(false);
    expect(budget.stoppedBy).toEqual({ kind: 'call_budget', message: 'LLM call budget of 3 reached' });
    expect(budget.usage).toMatchObject({ llmCalls: 6, cacheHits: 3, promptTokens: 60 });
    // Calls in flight are reserved: two parallel steps cannot overshoot together.
    const parallel = new RunBudget({ maxLlmCalls: 4, maxTokens: 1_000 }, () => 0);
    const release = parallel.reserve(3);
    expect(parallel.refuse(3)?.kind).toBe('call_budget');
    release();
    const tokens = new RunBudget({ maxLlmCalls: 100, maxTokens: 5 }, () => 0);
    expect(spend(tokens, 1, [call(false)])).toBe(true);
    expect(spend(tokens, 1, [call(false)])).toBe(false);
    expect(tokens.stoppedBy).toEqual({ kind: 'token_budget', message: 'token budget of 5 reached' });
  });

  it('runs tasks with bounded concurrency and keeps results in order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapWithConcurrency([5, 1, 3, 2], 2, async (x) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, x));
      inFlight--;
      return x * 10;
    });
    expect(results).toEqual([50, 10, 30, 20]);
    expect(most).toBe(2);
  });
});
