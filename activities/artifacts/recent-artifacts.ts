import type { ArtifactStore } from './artifact-store';

/**
 * A small per-store cache of things derived from versioned artifacts. An artifact of one version
 * never changes (a changed database or configuration is a new version), so a worker may keep
 * what it loaded: the `keep` most recently used entries per store, the promise itself so that
 * concurrent loads of one key share one read, and a failed load forgotten so it is retried.
 */
export function recentArtifacts<T>(keep: number) {
  const perStore = new WeakMap<ArtifactStore, Map<string, Promise<T>>>();
  return (store: ArtifactStore, key: string, load: () => Promise<T>): Promise<T> => {
    const cache = perStore.get(store) ?? new Map<string, Promise<T>>();
    perStore.set(store, cache);
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key); // re-insert: Map order doubles as recency order
      cache.set(key, hit);
      return hit;
    }
    const loading = load();
    loading.catch(() => cache.get(key) === loading && cache.delete(key));
    cache.set(key, loading);
    if (cache.size > keep) cache.delete(cache.keys().next().value as string);
    return loading;
  };
}
