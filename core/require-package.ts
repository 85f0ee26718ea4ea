/**
 * A package's main export, required when first needed instead of imported with the module that
 * uses it: a process that never takes that path then never holds the package (its code and
 * sources stay in memory once loaded; each caller says how much it saves). `export default` of
 * an ES-module build and `module.exports =` of a CommonJS one both come back as the export.
 */
export function requirePackage<T>(name: string): T {
  const loaded = require(name) as T & { __esModule?: boolean; default?: T };
  return loaded.__esModule && loaded.default !== undefined ? loaded.default : loaded;
}
