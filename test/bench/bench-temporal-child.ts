// Starts a bench's Temporal server, says its pid, and waits to be stopped (test/bench/bench-temporal.test.ts).
import { startBenchTemporal } from '../../bench/bench-temporal';

void startBenchTemporal().then(() => {
  console.log('ready');
  setInterval(() => {}, 60_000);
});
