// js-yaml comes with the test tooling (a dependency of jest's coverage tooling), without its
// types; the compose test needs only `load`. Declare js-yaml and @types/js-yaml as dev
// dependencies to drop this file.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
