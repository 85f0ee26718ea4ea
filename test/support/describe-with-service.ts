/**
 * `describe` for tests against a server that may be missing on this machine (one no registry
 * ships, or a system package not installed). `reason` is null when it is there; otherwise the
 * suite's title says why and its one test is skipped, and under CI=true that test fails instead,
 * so CI never passes by skipping.
 */
export function describeWithService(title: string, service: string, reason: string | null, hint: string, body: () => void): void {
  if (reason === null) {
    describe(title, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(title, () => {
      it(`fails: ${reason} (CI=true runs every ${service} test; ${hint})`, () => {
        throw new Error(`${service} tests cannot run: ${reason}`);
      });
    });
    return;
  }
  // The one kind of skip in the suite, on purpose: the title says why; under CI=true (above) the
  // same tests fail instead of skipping.
  describe(`${title} [skipped: ${reason}]`, () => {
    it.skip(`needs ${service}: ${reason} (${hint})`, () => undefined);
  });
}
