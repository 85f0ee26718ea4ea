import { pythonBytesRepr, pythonFloatRepr, pythonStrAndType } from '../../core/evaluation/python-str';

/** The expected strings were printed by Python 3 (`print(x)`, `str(x) + str(type(x))`). */
describe("Python's str() of values as sqlite3 returns them", () => {
  it.each([
    [1, '1.0'],
    [100, '100.0'],
    [0.1, '0.1'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [123456789012345.6, '123456789012345.6'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1.5e-7, '1.5e-07'],
    [-2.5, '-2.5'],
    [1e100, '1e+100'],
    [12345678901234567890, '1.2345678901234567e+19'],
  ])('repr(float(%p)) is %s', (x, expected) => {
    expect(pythonFloatRepr(x)).toBe(expected);
  });

  it('bytes, None, int and str with their types', () => {
    expect(pythonBytesRepr(Buffer.from([0, 39, 92, 65, 10, 200]))).toBe(`b"\\x00'\\\\A\\n\\xc8"`);
    expect(pythonBytesRepr(Buffer.from(`a'b"`))).toBe(`b'a\\'b"'`);
    expect(pythonStrAndType(null, false)).toBe("None<class 'NoneType'>");
    expect(pythonStrAndType(1, false)).toBe("1<class 'int'>");
    expect(pythonStrAndType(1, true)).toBe("1.0<class 'float'>");
    expect(pythonStrAndType({ int: '9007199254740993' }, false)).toBe("9007199254740993<class 'int'>");
    expect(pythonStrAndType('x', false)).toBe("x<class 'str'>");
  });
});
