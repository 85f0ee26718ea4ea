import os from 'node:os';
import { parsePositiveInteger } from '../../../core/config-values';
import { configError } from '../config-values';

/** The variable that sets the local model's threads, whatever the machine. */
export const LOCAL_THREADS_ENV = 'DECODEX_LLM_LOCAL_THREADS';

/** The machine as the model finds it when it loads: its cores, and its 1-minute load average (the cores already busy). */
export interface MachineLoad {
  cores: number;
  load1: number;
}

/**
 * The local model's CPU threads: DECODEX_LLM_LOCAL_THREADS when it is set, else every core that is
 * not already busy, at least one.
 *
 * Every idle core, none held back: a question waits on one model call at a time for most of its
 * time, and while it waits the worker's event loop and the Temporal server have next to nothing to
 * do, so a core kept for them (the default was cores − 1) was mostly a core the model did not use:
 * an idle 2-core machine ran its model on one thread (issue 34: the best preset took 49 s a
 * question with two threads on an idle 2-core machine).
 *
 * Not the busy cores: llama.cpp's threads wait for each other by spinning, so when one of them is
 * descheduled all of them stall (on a busy 2-core machine two threads fell below 1 token/s where
 * one made 4). The cores the load average says are busy when the model loads are left to whatever
 * keeps them busy.
 */
export function localThreads(override: string | undefined, machine: MachineLoad): number {
  if (override !== undefined && override !== '') return parsePositiveInteger(override, LOCAL_THREADS_ENV, configError);
  return Math.max(1, machine.cores - Math.round(machine.load1));
}

/** This machine now. */
export function machineLoadNow(): MachineLoad {
  return { cores: os.availableParallelism(), load1: os.loadavg()[0] };
}
