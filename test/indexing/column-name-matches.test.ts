import { columnNameMatches, nameWords } from '../../core/indexing/column-name-matches';

describe('column-name matches among the found tables', () => {
  const tables = [
    { name: 'Students', columns: ['student_id', 'student_name', 'date_of_birth', 'home_address', 'phone_number'] },
    { name: 'singer', columns: ['Singer_ID', 'Name', 'Country', 'Age', 'Is_male'] },
  ];

  it('splits names into singular words', () => {
    expect(nameWords('dateOfBirth')).toEqual(['date', 'birth']);
    expect(nameWords('Home_Addresses')).toEqual(['home', 'address']);
    expect(nameWords('cities')).toEqual(['city']);
  });

  it('adds the columns a question names, by words that tell them apart', () => {
    const found = columnNameMatches('What are the names and home addresses of singers older than 30 from each country?', tables);
    expect(found.map((m) => `${m.table}.${m.column}`)).toEqual([
      'Students.student_name',
      'Students.home_address',
      'singer.Name',
      'singer.Country',
      'singer.Age',
    ]);
  });

  it("ignores the table's own word and words too generic to tell columns apart", () => {
    // "student" is every column of Students; "number" and "id" are in too many names to mean one.
    expect(columnNameMatches('How many students have a student id number?', tables)).toEqual([]);
  });
});
