// Lint: ESLint's recommended rules and typescript-eslint's type-aware ones — floating promises above all: a promise
// nobody awaits is an error nobody sees. `npm run lint` runs it with the formatter check; `npm test` runs both first.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/.probe/**', '**/*.mjs', '**/*.cjs', '**/*.js', 'src/console/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An async function with no await is how a handler keeps the shape its interface asks for.
      '@typescript-eslint/require-await': 'off',
      // Security code matches control characters on purpose (escaping them, refusing them).
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
    },
  },
  {
    // Tests read JSON answers whose shape they assert: `any` there is the point, not a hole.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
