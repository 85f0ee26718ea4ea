import { parseArgs } from 'node:util';
import { runningEmbeddedServer, serverPidFile, startEmbeddedServer, stopBackgroundServer } from '../temporal/embedded-server';
import { log, untilSignal, UsageError, type Command } from './command';

export const serverCommand: Command = {
  name: 'server',
  usage: 'server [--stop]                   run the embedded Temporal dev server (Web UI on :8233); --stop ends the one running',
  examples: [
    'npx decodex server          # in the foreground, Ctrl-C stops it',
    'npx decodex server --stop   # stops the one ask/prepare left in the background',
  ],
  async run(config, args) {
    const { values } = parseArgs({ args, options: { stop: { type: 'boolean' } } });
    if (values.stop) {
      const stopped = await stopBackgroundServer(config);
      if (stopped.length) {
        log(`stopped the Temporal dev server of ${config.home} (pid ${stopped.join(', ')})`);
        return 0;
      }
      // Not ours to stop, but the operator who asked should know it is there.
      const other = await runningEmbeddedServer(config);
      if (other) {
        log(`no Temporal dev server of ${config.home} is running, but something listens on ${other.address} (another home's server?): not stopped`);
        return 1;
      }
      log('no Temporal dev server was running');
      return 0;
    }
    if (config.temporalAddress) {
      throw new UsageError(`TEMPORAL_ADDRESS=${config.temporalAddress} is set: decodex uses that server, there is nothing to start`);
    }
    const running = await runningEmbeddedServer(config);
    if (running) {
      const who = running.pids.length ? `this home's Temporal dev server (pid ${running.pids.join(', ')})` : 'something (not this home’s dev server)';
      log(
        `${who} already listens on ${running.address}; decodex commands use it (Web UI ${config.uiUrl}). ` +
          `\`npx decodex server --stop\` stops decodex's own (pid file ${serverPidFile(config)}).`,
      );
      return 1;
    }
    const endpoint = await startEmbeddedServer(config, { log });
    log('Press Ctrl-C to stop.');
    // Ctrl-C here, or `decodex server --stop` from another terminal (then the server is gone already).
    const stoppedElsewhere = await Promise.race([untilSignal().then(() => false), endpoint.exited!.then(() => true)]);
    if (stoppedElsewhere) log('the Temporal dev server stopped');
    else await endpoint.stop?.();
    return 0;
  },
};
