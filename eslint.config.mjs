// Lint rules that keep the architecture honest (DESIGN.md "Shape"):
// - workflows are deterministic sandboxed code: they may import activity *types* only;
// - core/ is pure code shared by both sides: it never imports activities/ or cli/.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.decodex/**', 'coverage/**', 'bin/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-unreachable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', ignoreRestSiblings: true, caughtErrors: 'none' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'workflows import activity types only (import type ...)' },
            { group: ['**/cli', '**/cli/**', 'node:*', 'fs', 'path', 'os'], message: 'workflows are deterministic: no cli or Node modules' },
          ],
        },
      ],
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/activities', '**/activities/**'], message: 'core/ is pure shared code: move the type into core/ instead' },
            { group: ['**/cli', '**/cli/**', '**/workers/**', '**/workflows/**'], message: 'core/ must not depend on cli/, workers/ or workflows/' },
          ],
        },
      ],
    },
  },
);
