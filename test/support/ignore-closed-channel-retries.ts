/**
 * A Temporal client call that @temporalio/client's gRPC retry scheduled before its test closed the
 * connection throws "Channel has been shut down" from a timer, later, inside whichever test file
 * the jest worker runs next, which then fails although nothing in it went wrong. Seen in full
 * runs only (about once per run, after a different file each time), not reproduced alone. This
 * drops exactly that error; any other uncaught error still fails the run. Which test leaves the
 * retrying call behind is still to be found (the closing note of 2026-12-02 says so).
 */
process.on('uncaughtException', (err: unknown) => {
  if (err instanceof Error && err.message === 'Channel has been shut down') return;
  throw err;
});
