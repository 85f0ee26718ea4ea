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

/** The answers in `file`, in order; none when it does not exist. Throws, naming the line, on one that is not a carried answer. */
function readCarried(file: string): CarriedAnswer[] {
  if (!existsSync(file)) return [];
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean);
  return lines.map((line, i) => {
    let entry: CarriedAnswer;
    try {
      entry = JSON.parse(line) as CarriedAnswer;
    } catch {
      throw new Error(`${file}: line ${i + 1} is not JSON; delete the file (or pass --carry '') to run without carried answers`);
    }
    if (typeof entry.key !== 'string' || typeof entry.value?.text !== 'string') throw new Error(`${file}: line ${i + 1} is not a carried answer {key, value}`);
    return entry;
  });
}

/** Adds the carried answers the store does not hold yet; returns how many it added. */
export async function importCarriedAnswers(store: ArtifactStore, file: string): Promise<number> {
  const held = new Set(await store.list(LLM_CACHE_KIND));
  let added = 0;
  for (const entry of readCarried(file)) {
    if (held.has(entry.key)) continue;
    await store.put(LLM_CACHE_KIND, entry.key, entry.value);
    added++;
  }
  return added;
}

/**
 * Writes every answer in the store's LLM cache to `file`, keeping the answers the file already
 * holds that this store does not (another home, or another bench beside this one, may have carried
 * them there since this store read it); atomically: a temporary file of this process, then a
 * rename. Returns how many answers the file holds.
 */
export async function exportCarriedAnswers(store: ArtifactStore, file: string): Promise<number> {
  const answers = new Map(readCarried(file).map((e) => [e.key, e.value]));
  for (const key of await store.list(LLM_CACHE_KIND)) {
    const value = await store.get<CachedCompletion>(LLM_CACHE_KIND, key);
    if (value !== undefined) answers.set(key, value);
  }
  const lines = [...answers.keys()].sort().map((key) => JSON.stringify({ key, value: answers.get(key)! } satisfies CarriedAnswer));
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
  renameSync(partial, file);
  return lines.length;
}
