import type { Dialect } from '../../core/database/schema-types';

/**
 * The functions generated SQL may call, per engine: an allowlist, not a blocklist. A blocklist
 * has to know every function that reaches outside the query (files, programs, other sessions,
 * settings, locks, large objects, sequences, SQL given as text, other connections), and every
 * release and extension adds some; one it missed (PostgreSQL's ts_stat, which runs a query given
 * as text) was enough to read server files. Answering a question needs far fewer: aggregates,
 * arithmetic, strings, dates and times, casts, conditionals, JSON access and window functions.
 * Anything else, user-defined functions included, is refused and the refusal names it.
 */

/** In every engine (the name means the same harmless thing in each where it exists). */
const COMMON = [
  // aggregates
  ...words(
    'COUNT SUM AVG MIN MAX GROUP_CONCAT STRING_AGG TOTAL STDDEV STDDEV_POP STDDEV_SAMP STD VARIANCE',
    'VAR_POP VAR_SAMP BIT_AND BIT_OR BIT_XOR BOOL_AND BOOL_OR EVERY ANY_VALUE MEDIAN',
  ),
  // window functions
  ...words('ROW_NUMBER RANK DENSE_RANK PERCENT_RANK CUME_DIST NTILE LAG LEAD FIRST_VALUE LAST_VALUE', 'NTH_VALUE'),
  // arithmetic
  ...words(
    'ABS ROUND CEIL CEILING FLOOR TRUNC TRUNCATE MOD POW POWER SQRT CBRT EXP LN LOG LOG10 LOG2 SIGN',
    'PI DEGREES RADIANS SIN COS TAN ASIN ACOS ATAN ATAN2 COT DIV GREATEST LEAST RANDOM RAND',
  ),
  // strings
  ...words(
    'LENGTH CHAR_LENGTH CHARACTER_LENGTH OCTET_LENGTH BIT_LENGTH LOWER UPPER LCASE UCASE INITCAP',
    'SUBSTR SUBSTRING MID LEFT RIGHT TRIM LTRIM RTRIM BTRIM REPLACE REVERSE REPEAT LPAD RPAD CONCAT',
    'CONCAT_WS INSTR LOCATE POSITION STRPOS SPLIT_PART SUBSTRING_INDEX ASCII CHR CHAR UNICODE HEX',
    'UNHEX FORMAT PRINTF QUOTE SPACE FIELD FIND_IN_SET ELT STRCMP SOUNDEX TRANSLATE OVERLAY',
    'REGEXP_REPLACE REGEXP_SUBSTR REGEXP_INSTR REGEXP_LIKE REGEXP_MATCH REGEXP_MATCHES STARTS_WITH',
    'MD5 LIKE GLOB MATCH AGAINST',
  ),
  // dates and times
  ...words(
    'DATE TIME DATETIME TIMESTAMP JULIANDAY STRFTIME UNIXEPOCH NOW CURDATE CURTIME CURRENT_DATE',
    'CURRENT_TIME CURRENT_TIMESTAMP LOCALTIME LOCALTIMESTAMP SYSDATE UTC_DATE UTC_TIME UTC_TIMESTAMP',
    'YEAR MONTH DAY DAYOFMONTH DAYOFWEEK DAYOFYEAR WEEKDAY WEEK WEEKOFYEAR YEARWEEK QUARTER HOUR',
    'MINUTE SECOND MICROSECOND MONTHNAME DAYNAME LAST_DAY EXTRACT DATE_PART DATE_TRUNC DATE_FORMAT',
    'TIME_FORMAT STR_TO_DATE TO_CHAR TO_DATE TO_TIMESTAMP TO_NUMBER MAKE_DATE MAKE_TIME MAKEDATE',
    'MAKETIME AGE DATEDIFF TIMEDIFF TIMESTAMPDIFF TIMESTAMPADD DATE_ADD DATE_SUB ADDDATE SUBDATE',
    'ADDTIME SUBTIME PERIOD_DIFF PERIOD_ADD FROM_DAYS TO_DAYS TO_SECONDS SEC_TO_TIME TIME_TO_SEC',
    'FROM_UNIXTIME UNIX_TIMESTAMP JUSTIFY_DAYS CONVERT_TZ',
  ),
  // casts and type names written with a length (CAST(x AS DECIMAL(10, 2)), x::varchar(20))
  ...words(
    'CAST CONVERT TRY_CAST TYPEOF PG_TYPEOF DECIMAL NUMERIC DEC FLOAT DOUBLE REAL INT INTEGER BIGINT',
    'SMALLINT VARCHAR NVARCHAR NCHAR CHARACTER VARYING BINARY VARBINARY BIT SIGNED UNSIGNED',
    'TIMESTAMPTZ TIMETZ INTERVAL TEXT',
  ),
  // conditionals
  ...words('COALESCE NULLIF IFNULL NVL IF IIF ISNULL NULLIFZERO'),
  // JSON access
  ...words(
    'JSON_EXTRACT JSON_UNQUOTE JSON_VALUE JSON_QUERY JSON_CONTAINS JSON_LENGTH JSON_KEYS JSON_TYPE',
    'JSON_VALID JSON_ARRAY_LENGTH JSON_OBJECT JSON_ARRAY JSON_ARRAYAGG JSON_OBJECTAGG',
    'JSON_GROUP_ARRAY JSON_GROUP_OBJECT JSON_EACH JSON_TREE JSON JSON_AGG JSONB_AGG JSON_BUILD_OBJECT',
    'JSONB_BUILD_OBJECT JSON_BUILD_ARRAY JSON_EXTRACT_PATH JSON_EXTRACT_PATH_TEXT JSONB_EXTRACT_PATH',
    'JSONB_EXTRACT_PATH_TEXT JSON_ARRAY_ELEMENTS JSONB_ARRAY_ELEMENTS JSON_TYPEOF JSONB_TYPEOF',
    'JSONB_ARRAY_LENGTH',
  ),
  // what the session is (read, never changed)
  ...words('VERSION CURRENT_USER SESSION_USER USER'),
];

/** Engine-specific names: what only one engine spells this way. */
const BY_DIALECT: Record<Dialect, string[]> = {
  sqlite: words('LIKELIHOOD LIKELY UNLIKELY ZEROBLOB RANDOMBLOB SOUNDEX OCTET_LENGTH CONCAT TIMEDIFF'),
  mysql: words('WEIGHT_STRING BIN OCT CONV CRC32 SHA1 SHA2 TO_BASE64 FROM_BASE64 INET_ATON INET_NTOA ROW DATABASE SCHEMA CONNECTION_ID'),
  postgres: words(
    'ARRAY_AGG ARRAY_LENGTH CARDINALITY UNNEST ARRAY_TO_STRING STRING_TO_ARRAY ARRAY_POSITION',
    'GENERATE_SERIES WIDTH_BUCKET PERCENTILE_CONT PERCENTILE_DISC MODE CORR COVAR_POP',
    'COVAR_SAMP REGR_SLOPE REGR_INTERCEPT REGR_R2 GCD LCM SCALE FACTORIAL ROW MAKE_INTERVAL',
    'MAKE_TIMESTAMP ISFINITE JUSTIFY_HOURS JUSTIFY_INTERVAL CLOCK_TIMESTAMP STATEMENT_TIMESTAMP',
    'TRANSACTION_TIMESTAMP TIMEOFDAY NORMALIZE TO_HEX ENCODE DECODE NUMNONNULLS NUMNULLS BOOL',
    'DATE_BIN GROUPING PG_BACKEND_PID CURRENT_DATABASE CURRENT_SCHEMA',
  ),
};

/** The names of a list written as words separated by spaces. */
function words(...lines: string[]): string[] {
  return lines.join(' ').split(/\s+/).filter(Boolean);
}

const ALLOWED: Record<Dialect, Set<string>> = {
  sqlite: new Set([...COMMON, ...BY_DIALECT.sqlite]),
  mysql: new Set([...COMMON, ...BY_DIALECT.mysql]),
  postgres: new Set([...COMMON, ...BY_DIALECT.postgres]),
};

/**
 * Why a call of `name` (as written, any case; unqualified) is refused in `dialect`, or null when
 * generated SQL may call it.
 */
export function refusedFunction(name: string, dialect: Dialect): string | null {
  if (ALLOWED[dialect].has(name.toUpperCase())) return null;
  return (
    `${name.toLowerCase()}() is not among the functions generated SQL may call ` +
    '(aggregates, arithmetic, strings, dates and times, casts, conditionals, JSON access, window functions); ' +
    'functions that reach files, programs, settings, locks, other sessions or connections, or run SQL given as text are refused, as are user-defined functions'
  );
}
