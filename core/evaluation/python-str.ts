import { isBigIntValue, type SqlValue } from '../sql-value';

/**
 * `str(x) + str(type(x))` for a value as Python's sqlite3 module returns it (INTEGER -> int,
 * REAL -> float, TEXT -> str, BLOB -> bytes, NULL -> None): the key by which Spider's official
 * evaluator sorts the values of a row before its quick rejection. `real` says the value was
 * stored as REAL, which a whole JavaScript number cannot tell.
 */
export function pythonStrAndType(value: SqlValue, real: boolean): string {
  if (value === null) return "None<class 'NoneType'>";
  if (typeof value === 'string') return `${value}<class 'str'>`;
  if (typeof value === 'number') {
    return real || !Number.isInteger(value) ? `${pythonFloatRepr(value)}<class 'float'>` : `${BigInt(value)}<class 'int'>`;
  }
  if (isBigIntValue(value)) return `${BigInt(value.int)}<class 'int'>`;
  return `${pythonBytesRepr(Buffer.from(value.bytes, 'base64'))}<class 'bytes'>`;
}

/**
 * Python's `repr(float)`: the shortest digits that round-trip (as JavaScript's), in fixed
 * notation with at least one decimal when the decimal exponent is in [-4, 16), otherwise in
 * scientific notation with a signed exponent of at least two digits (1e+16, 1.5e-05).
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = x.toExponential().split('e');
  const exponent = Number(exp);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  return `${sign}${whole}.${digits.slice(exponent + 1) || '0'}`;
}

/** Python's `repr(bytes)`: b'...' (b"..." when it holds ' but no "), printable ASCII as is. */
export function pythonBytesRepr(bytes: Uint8Array): string {
  const quote = bytes.includes(0x27) && !bytes.includes(0x22) ? '"' : "'";
  let body = '';
  for (const b of bytes) {
    if (b === 0x5c) body += '\\\\';
    else if (b === quote.charCodeAt(0)) body += `\\${quote}`;
    else if (b === 0x09) body += '\\t';
    else if (b === 0x0a) body += '\\n';
    else if (b === 0x0d) body += '\\r';
    else if (b >= 0x20 && b < 0x7f) body += String.fromCharCode(b);
    else body += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `b${quote}${body}${quote}`;
}
