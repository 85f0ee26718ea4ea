/**
 * Spots a generation that has fallen into a loop: its text ends with one short unit written over
 * and over ("LIMIT 10000000000000...", "AND AND AND ..."). A model at temperature 0 that repeats
 * a unit this many times does not stop by itself; it runs to its token cap, so the answer is
 * lost either way and stopping at once saves the rest of the generation (tens of seconds on a
 * CPU). The thresholds sit far above what SQL or prose repeats: 24 equal characters in a row,
 * or a unit of up to 16 characters repeated back to back 24 times and over 200 characters. (A
 * small model listing the same keyword ten times, `"Londoner", "Londoner", ...`, still closes
 * its array: that is a poor answer, not a loop.)
 */
const SAME_CHARACTER_RUN = 24;
const MAX_UNIT = 16;
const UNIT_REPEATS = 24;
const UNIT_RUN_CHARACTERS = 200;

export interface Repetition {
  unit: string;
  times: number;
}

/** The unit the text ends repeating and how often, or null when its end does not loop. */
export function degenerateRepetition(text: string): Repetition | null {
  for (let length = 1; length <= MAX_UNIT; length++) {
    const unit = text.slice(-length);
    // A unit that is itself a shorter one repeated ("00") is judged as that shorter unit.
    if (unit.length < length || unit.trim() === '' || isPeriodic(unit)) continue;
    let times = 1;
    while (text.endsWith(unit, text.length - times * length) && times * length < text.length) times++;
    const looping = length === 1 ? times >= SAME_CHARACTER_RUN : times >= UNIT_REPEATS && times * length >= UNIT_RUN_CHARACTERS;
    if (looping) return { unit, times };
  }
  return null;
}

function isPeriodic(unit: string): boolean {
  for (let period = 1; period < unit.length; period++) {
    if (unit.length % period === 0 && unit.slice(0, period).repeat(unit.length / period) === unit) return true;
  }
  return false;
}
