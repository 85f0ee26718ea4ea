import { parseArgs } from 'node:util';
import { startEmbeddedServer, stopBackgroundServer } from '../temporal/embedded-server';
import { log, untilSignal, UsageError, type Command } from './command';

export const serverCommand: Command = {
  name: 'server',
  examples: [
    'npx decodex server          # in the foreground, Ctrl-C stops it',
    'npx decodex server --stop   # stops the one ask/prepare left in the background',
  ],
  usage: 'server [--stop]                   run the embedded Temporal dev server (Web UI on :8233); --stop ends a background one',
  async run(config, args) {
    const { values } = parseArgs({ args, options: { stop: { type: 'boolean' } } });
    if (values.stop) {
      log((await stopBackgroundServer(config)) ? 'stopped the background Temporal dev server' : 'no background Temporal dev server was running');
      return 0;
    }
    if (config.temporalAddress) {
      throw new UsageError(`TEMPORAL_ADDRESS=${config.temporalAddress} is set: decodex uses that server, there is nothing to start`);
    }
    const endpoint = await startEmbeddedServer(config, { log });
    log('Press Ctrl-C to stop.');
    await untilSignal();
    await endpoint.stop?.();
    return 0;
  },
};
