/** Stops what global-setup started, newest first. */
export default async function globalTeardown(): Promise<void> {
  const started = ((globalThis as Record<string, unknown>).__decodexServices ?? []) as { stop(): Promise<void> }[];
  for (const service of started.reverse()) await service.stop().catch((err) => console.error('teardown:', err));
}
