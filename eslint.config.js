// Lint: ESLint's recommended rules and typescript-eslint's type-aware ones (floating promises above all: a promise
// nobody awaits is an error nobody sees). `npm run lint` runs it; `npm test` runs it first.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/.probe/**', 'coverage/**', '**/*.mjs', '**/*.cjs', 'src/console/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
);
