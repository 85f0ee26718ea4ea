import Database from 'better-sqlite3';
import path from 'node:path';

/**
 * Small databases with the tables and columns of DecoSearch's appendix D worked examples
 * (BIRD's formula_1 and thrombosis_prediction), with data chosen so each answer is known.
 */

/**
 * D.1: the driver with the most accidents (statusId 3) in the Canadian Grand Prix (two editions,
 * races 1 and 3) is driver 10, with 2 accidents there; driver 12's 3 accidents are in Monaco.
 */
export function createFormula1(dir: string): string {
  const file = path.join(dir, 'formula_1.sqlite');
  const db = new Database(file);
  db.exec(`
    CREATE TABLE races (raceId INTEGER PRIMARY KEY, year INTEGER, name TEXT);
    CREATE TABLE drivers (driverId INTEGER PRIMARY KEY, surname TEXT);
    CREATE TABLE results (resultId INTEGER PRIMARY KEY, raceId INTEGER REFERENCES races(raceId), driverId INTEGER REFERENCES drivers(driverId), statusId INTEGER);
    INSERT INTO races VALUES (1, 2008, 'Canadian Grand Prix'), (2, 2008, 'Monaco Grand Prix'), (3, 2009, 'Canadian Grand Prix');
    INSERT INTO drivers VALUES (10, 'Kubica'), (11, 'Hamilton'), (12, 'Sutil');
    INSERT INTO results VALUES
      (1, 1, 10, 3), (2, 1, 11, 3), (3, 1, 12, 1),
      (4, 3, 10, 3), (5, 3, 11, 1), (6, 3, 12, 1),
      (7, 2, 12, 3), (8, 2, 12, 3), (9, 2, 12, 3), (10, 2, 10, 1);
  `);
  db.close();
  return file;
}

/**
 * D.2: abnormal uric acid is UA ≤ 8.0 for men and UA ≤ 6.5 for women (the paper's evidence).
 * `patients` patients alternate M, F, M, ...; patient i has one laboratory row with UA
 * (i mod 10) + 0.5, so the abnormal ones and the ratio follow from the numbers.
 */
export function createThrombosis(dir: string, patients = 12, name = 'thrombosis_prediction'): string {
  const file = path.join(dir, `${name}.sqlite`);
  const db = new Database(file);
  db.exec(`
    CREATE TABLE Patient (ID INTEGER PRIMARY KEY, SEX TEXT, Birthday DATE);
    CREATE TABLE Laboratory (ID INTEGER REFERENCES Patient(ID), Date DATE, UA REAL);
  `);
  const patient = db.prepare('INSERT INTO Patient VALUES (?, ?, ?)');
  const lab = db.prepare('INSERT INTO Laboratory VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= patients; i++) {
      patient.run(i, i % 2 ? 'M' : 'F', '1970-01-01');
      lab.run(i, '2000-01-01', (i % 10) + 0.5);
    }
  })();
  db.close();
  return file;
}

/** The paper's ratio on a thrombosis database built above: abnormal men / abnormal women. */
export function expectedThrombosisRatio(patients = 12): number {
  let men = 0;
  let women = 0;
  for (let i = 1; i <= patients; i++) {
    const ua = (i % 10) + 0.5;
    if (i % 2 && ua <= 8.0) men++;
    if (!(i % 2) && ua <= 6.5) women++;
  }
  return men / women;
}
