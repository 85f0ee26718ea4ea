import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { LLM_CACHE_KIND, type CachedCompletion } from '../../activities/llm/llm-cache';
import { exportCarriedAnswers, importCarriedAnswers } from '../../bench/llm-answer-carry';

const answer = (text: string): CachedCompletion => ({ text, usage: { promptTokens: 10, completionTokens: 2 }, createdAt: '2026-12-03T00:00:00.000Z' });
const keysIn = (file: string) =>
  gunzipSync(readFileSync(file))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { key: string }).key);

describe('carried model answers (bench/llm-answer-carry)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-carry-'));
  const file = path.join(dir, 'carry', 'answers.jsonl.gz');
  const homeA = openSqliteArtifactStore(path.join(dir, 'a.sqlite'));
  const homeB = openSqliteArtifactStore(path.join(dir, 'b.sqlite'));
  afterAll(async () => {
    await homeA.close?.();
    await homeB.close?.();
  });

  it("keeps what another home carried since this one read the file: two benches share one file and neither's answers are lost", async () => {
    await homeA.put(LLM_CACHE_KIND, 'k1', answer('one'));
    expect(await exportCarriedAnswers(homeA, file)).toBe(1);
    // A second home starts from the file, then answers something of its own.
    expect(await importCarriedAnswers(homeB, file)).toBe(1);
    await homeB.put(LLM_CACHE_KIND, 'k3', answer('three'));
    // Meanwhile the first home answers more and carries it; then the second carries its own.
    await homeA.put(LLM_CACHE_KIND, 'k2', answer('two'));
    expect(await exportCarriedAnswers(homeA, file)).toBe(2);
    expect(await exportCarriedAnswers(homeB, file)).toBe(3);
    expect(keysIn(file)).toEqual(['k1', 'k2', 'k3']);
    // No temporary file is left behind.
    expect(readdirSync(path.dirname(file))).toEqual(['answers.jsonl.gz']);
    // A home that reads it now holds every answer.
    expect(await importCarriedAnswers(homeA, file)).toBe(1);
    expect((await homeA.get<CachedCompletion>(LLM_CACHE_KIND, 'k3'))?.text).toBe('three');
  });

  it('refuses a file that is not carried answers, naming the line, rather than overwriting it', async () => {
    const bad = path.join(dir, 'bad.jsonl.gz');
    writeFileSync(bad, gzipSync('{"key":"k1","value":{"text":"x"}}\nnot json\n'));
    await expect(importCarriedAnswers(homeA, bad)).rejects.toThrow(/line 2 is not JSON/);
    await expect(exportCarriedAnswers(homeA, bad)).rejects.toThrow(/line 2 is not JSON/);
  });
});
