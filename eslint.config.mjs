// Lint for the whole repository: typescript-eslint with type information (server, tests, bench and
// the browser app, each against its own tsconfig), react-hooks for the browser app, and Prettier's
// settings turned off here (Prettier formats; `npm run format:check` checks it). Zero warnings: CI
// runs `eslint --max-warnings 0`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.ci-results/**', 'data/**', 'server/src/database/migrations/**', '**/*.cjs', 'vite.config.*'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The rules the house asks for, at error level.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // As only-throw-error by default: a caught or given value (unknown, any) may be passed on as it is.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      // An async method without an await keeps an interface's promise shape (Nest hooks, senders): allowed.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Tests read HTTP and database answers as untyped JSON on purpose (what a client gets), and assert
    // on them: the unsafe-any rules guard the product's code, not the tests' reading of answers.
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
      },
    },
  },
  {
    // The Jest configurations and test/*.js are CommonJS files (package.json has no "type": "module"): require is their import.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // react-admin's authProvider contract: checkAuth / checkError reject with plain objects ({ redirectTo, message, logoutUser }).
    files: ['client/src/authProvider.ts'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    // These remove or refuse control characters in text on purpose (NUL, C0 controls): the regular expressions name them.
    files: ['server/src/files/content-type.ts', 'shared/common/storable.ts', 'client/src/kit/MarkdownField.url.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  prettier,
);
