import { ASSUMED_SPEED, generationDeadlineMs, SpeedMeter } from '../../activities/llm/local/generation-deadline';

describe('a local generation deadline follows the work and the measured speed', () => {
  it('grows with the prompt to evaluate and the tokens it may write, up to the ceiling', () => {
    const speed = { promptTokensPerSecond: 20, generationTokensPerSecond: 5 };
    const small = generationDeadlineMs({ promptTokens: 100, maxTokens: 50 }, speed, 600_000);
    const large = generationDeadlineMs({ promptTokens: 3000, maxTokens: 50 }, speed, 600_000);
    expect(large).toBeGreaterThan(small);
    // 3000 tokens at 20/s is 150 s of reading alone: a fixed 120 s deadline would always cut it.
    expect(large).toBeGreaterThan(150_000);
    expect(generationDeadlineMs({ promptTokens: 30_000, maxTokens: 512 }, speed, 300_000)).toBe(300_000);
  });

  it('a prefix the model reuses makes the deadline shorter (only the rest is evaluated)', () => {
    const speed = { promptTokensPerSecond: 20, generationTokensPerSecond: 5 };
    expect(generationDeadlineMs({ promptTokens: 50, maxTokens: 50 }, speed, 600_000)).toBeLessThan(
      generationDeadlineMs({ promptTokens: 2000, maxTokens: 50 }, speed, 600_000),
    );
  });

  it('assumes a slow machine until it has measured, then follows what it measures', () => {
    const meter = new SpeedMeter();
    expect(meter.current()).toEqual(ASSUMED_SPEED);
    meter.record({ promptTokens: 1000, promptMs: 40_000, generatedTokens: 100, generationMs: 20_000 });
    expect(meter.current()).toEqual({ promptTokensPerSecond: 25, generationTokensPerSecond: 5 });
    // A slower call moves the estimate part of the way, not all of it.
    meter.record({ promptTokens: 1000, promptMs: 100_000, generatedTokens: 100, generationMs: 50_000 });
    const after = meter.current();
    expect(after.promptTokensPerSecond).toBeLessThan(25);
    expect(after.promptTokensPerSecond).toBeGreaterThan(10);
    expect(meter.totals()).toEqual({ promptTokens: 2000, promptMs: 140_000, generatedTokens: 200, generationMs: 70_000 });
  });

  it('a missed deadline halves the speed, so the retry of the call gets twice the time', () => {
    const meter = new SpeedMeter();
    meter.record({ promptTokens: 1000, promptMs: 40_000, generatedTokens: 100, generationMs: 20_000 });
    const work = { promptTokens: 2000, maxTokens: 200 };
    const first = generationDeadlineMs(work, meter.current(), 600_000);
    meter.missedDeadline();
    expect(meter.current()).toEqual({ promptTokensPerSecond: 12.5, generationTokensPerSecond: 2.5 });
    const retry = generationDeadlineMs(work, meter.current(), 600_000);
    expect(retry - 15_000).toBe(2 * (first - 15_000));
    // Still under the ceiling, which no retry passes.
    meter.missedDeadline();
    meter.missedDeadline();
    expect(generationDeadlineMs(work, meter.current(), 300_000)).toBe(300_000);
  });

  it('ignores calls too small to time (a fully reused prompt, a two-token answer)', () => {
    const meter = new SpeedMeter();
    meter.record({ promptTokens: 3, promptMs: 1, generatedTokens: 2, generationMs: 1 });
    expect(meter.current()).toEqual(ASSUMED_SPEED);
  });
});
