import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ArtifactStore } from '../activities/artifacts/artifact-store';
import { LLM_CACHE_KIND, type CachedCompletion } from '../activities/llm/llm-cache';

/**
 * The model's answers carried from one machine (or session) to the next: the LLM cache of a bench
 * home as gzipped JSON lines `{"key", "value"}`, sorted by key (the same answers make the same file).
 *
 * Why: a full accuracy table takes more CPU-hours than one sitting has, and a bench home does not
 * outlive its machine. A run that starts from the carried answers replays every call whose prompt,
 * model and settings are unchanged (the cache key is all of them, so a changed prompt or another
 * model is simply asked again) and asks the model only for the rest. Replayed questions cost seconds,
 * which is why the table's "cached calls" column and `cached_call_fraction_<label>` say how much was.
 */
interface CarriedAnswer {
  key: string;
  value: CachedCompletion;
}

/** Adds the carried answers the store does not hold yet; returns how many it added. */
export async function importCarriedAnswers(store: ArtifactStore, file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean);
  const held = new Set(await store.list(LLM_CACHE_KIND));
  let added = 0;
  for (const [i, line] of lines.entries()) {
    let entry: CarriedAnswer;
    try {
      entry = JSON.parse(line) as CarriedAnswer;
    } catch {
      throw new Error(`${file}: line ${i + 1} is not JSON; delete the file (or pass --carry '') to run without carried answers`);
    }
    if (typeof entry.key !== 'string' || typeof entry.value?.text !== 'string') throw new Error(`${file}: line ${i + 1} is not a carried answer {key, value}`);
    if (held.has(entry.key)) continue;
    await store.put(LLM_CACHE_KIND, entry.key, entry.value);
    added++;
  }
  return added;
}

/** Writes every answer in the store's LLM cache to `file` (atomically: a temporary file, then a rename); returns how many. */
export async function exportCarriedAnswers(store: ArtifactStore, file: string): Promise<number> {
  const keys = await store.list(LLM_CACHE_KIND); // sorted by the store
  const lines: string[] = [];
  for (const key of keys) {
    const value = await store.get<CachedCompletion>(LLM_CACHE_KIND, key);
    if (value !== undefined) lines.push(JSON.stringify({ key, value } satisfies CarriedAnswer));
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  writeFileSync(partial, gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
  renameSync(partial, file);
  return lines.length;
}
