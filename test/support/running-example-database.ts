import Database from 'better-sqlite3';
import path from 'node:path';

/**
 * DexterSQL's running example (Tables 2 and 3, from BIRD's thrombosis_prediction): a patient
 * table with one final diagnosis per patient, and an examination table with a diagnosis per
 * examination, several per patient.
 *
 *   Patient            Examination
 *   ID  Diagnosis      ID  Diagnosis
 *   1   SLE            1   SLE
 *   2   PSS            1   PSS
 *                      2   SLE
 *
 * What the tables imply for the pair ⟨Patient.Diagnosis, Examination.Diagnosis⟩ over the join
 * Patient.ID = Examination.ID (Patient is Ti, the key side):
 * - coverage = |{1, 2}| / |{1, 2}| = 1 (every patient has an examination);
 * - fan-out  = 3 joined rows / 2 patients = 1.5;
 * - agreement = 1 / 3 (only patient 1's SLE examination matches the final diagnosis);
 * - overlap: both columns hold {SLE, PSS}, Jaccard 1.
 */
export const RUNNING_EXAMPLE = {
  patients: [
    [1, 'SLE'],
    [2, 'PSS'],
  ],
  examinations: [
    [1, 'SLE'],
    [1, 'PSS'],
    [2, 'SLE'],
  ],
  expected: { coverage: 1, fanout: 1.5, agreement: 1 / 3, jaccard: 1 },
} as const;

/** Creates `thrombosis_example.sqlite` in `dir` and returns its path. */
export function createRunningExampleDatabase(dir: string, name = 'thrombosis_example'): string {
  const file = path.join(dir, `${name}.sqlite`);
  const db = new Database(file);
  try {
    db.exec(`
      CREATE TABLE Patient (ID INTEGER PRIMARY KEY, Diagnosis TEXT);
      CREATE TABLE Examination (ID INTEGER REFERENCES Patient (ID), Diagnosis TEXT);
    `);
    const patient = db.prepare('INSERT INTO Patient (ID, Diagnosis) VALUES (?, ?)');
    const examination = db.prepare('INSERT INTO Examination (ID, Diagnosis) VALUES (?, ?)');
    for (const row of RUNNING_EXAMPLE.patients) patient.run(...row);
    for (const row of RUNNING_EXAMPLE.examinations) examination.run(...row);
  } finally {
    db.close();
  }
  return file;
}
