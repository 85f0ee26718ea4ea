import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
const HistoryMessage = temporal.api.history.v1.History;

/** Where the recorded question histories live (committed: they are the old code's behaviour). */
export const HISTORIES_DIR = path.join(__dirname, '..', 'workflows', 'histories');

const SUFFIX = '.json.gz';

export interface StoredHistory {
  /** The scenario that recorded it (the file's name). */
  name: string;
  workflowId: string;
  history: History;
}

/**
 * Writes one history as gzipped JSON: the workflow id and the history as protobuf binary (base64).
 * Not Temporal's JSON form: `historyToJSON` fails in this install ("type must be a Type", two
 * copies of protobufjs), and the binary form is exact and smaller.
 */
export function saveHistory(name: string, workflowId: string, history: History): void {
  mkdirSync(HISTORIES_DIR, { recursive: true });
  const encoded = Buffer.from(HistoryMessage.encode(history).finish()).toString('base64');
  const json = JSON.stringify({ workflowId, format: 'temporal.api.history.v1.History, protobuf binary, base64', history: encoded });
  writeFileSync(path.join(HISTORIES_DIR, `${name}${SUFFIX}`), gzipSync(json, { level: 9 }));
}

/** Every stored history, by file name. */
export function loadHistories(): StoredHistory[] {
  return readdirSync(HISTORIES_DIR)
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => {
      const stored = JSON.parse(gunzipSync(readFileSync(path.join(HISTORIES_DIR, f))).toString('utf8')) as { workflowId: string; history: string };
      return { name: f.slice(0, -SUFFIX.length), workflowId: stored.workflowId, history: HistoryMessage.decode(Buffer.from(stored.history, 'base64')) };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
