import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';

/**
 * The walls between the parts of the code (docs/ARCHITECTURE.md):
 * - client and server never import each other; both import src/shared, which imports neither;
 * - a client feature never imports another feature (what two need moves to lib/, components/ or
 *   src/shared); the app shell composes features;
 * - a server module is used by others only through its public files: routes.ts (the plugin),
 *   service.ts, and the few files named below; everything else is its inside.
 */
const MODULE_PUBLIC_FILES = ['routes.ts', 'service.ts', 'guards.ts', 'users.ts', 'session.ts', 'slots.ts', 'refunds.ts', 'ledger.ts', 'life.ts', 'transition.ts', 'checkout.ts', 'page-checker.ts', 'watch.ts', 'timers.ts', 'openapi.ts', 'audit.ts', 'budget.ts', 'clients.ts', 'orders.ts', 'swap.ts', 'cancel.ts', 'conversation.ts', 'attachment.ts', 'claimable.ts', 'documents.ts', 'late-credit.ts', 'deadlines.ts'];

const ERRORS_AT_THE_EDGE_MESSAGE =
  'Errors at the edge (decision 040): throw a domain error with a code (lib/errors.ts); the app maps its kind to the HTTP status';
const STATUS = '/^[45][0-9][0-9]$/';
const ERRORS_AT_THE_EDGE = [
  `ThrowStatement Literal[raw=${STATUS}]`,
  `NewExpression Literal[raw=${STATUS}]`,
  `TSLiteralType > Literal[raw=${STATUS}]`,
  `CallExpression[callee.property.name=/^(code|status)$/] > Literal[raw=${STATUS}]`,
  "MemberExpression[property.name='statusCode']",
].map((selector) => ({ selector, message: ERRORS_AT_THE_EDGE_MESSAGE }));

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'drizzle', '.tmp', 'data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/set-state-in-effect': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/include': ['src/**/*'],
      'boundaries/elements': [
        { type: 'shared', pattern: 'src/shared' },
        { type: 'client-feature', pattern: 'src/client/features/*', capture: ['feature'] },
        { type: 'client-app', pattern: 'src/client/app' },
        { type: 'client-common', pattern: ['src/client/components', 'src/client/lib', 'src/client/*.{ts,tsx}'] },
        { type: 'server-module', pattern: 'src/server/modules/*', capture: ['module'] },
        { type: 'server', pattern: 'src/server' },
      ],
      'boundaries/files': [{ category: 'module-public', pattern: `src/server/modules/*/{${MODULE_PUBLIC_FILES.join(',')}}` }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message: 'This import crosses a wall of docs/ARCHITECTURE.md ({{ from.element.types.[0] }} -> {{ to.element.types.[0] }})',
          policies: [
            { from: { element: { type: 'shared' } }, allow: { to: { element: { type: 'shared' } } } },
            {
              from: { element: { type: 'client-common' } },
              allow: { to: { element: { types: { anyOf: ['client-common', 'client-app', 'shared'] } } } },
            },
            {
              from: { element: { type: 'client-app' } },
              allow: { to: { element: { types: { anyOf: ['client-app', 'client-common', 'client-feature', 'shared'] } } } },
            },
            {
              from: { element: { type: 'client-feature' } },
              allow: [
                { to: { element: { types: { anyOf: ['client-common', 'shared'] } } } },
                { to: { element: { type: 'client-feature', captured: { feature: '{{ from.element.captured.feature }}' } } } },
              ],
            },
            {
              from: { element: { type: 'server-module' } },
              allow: [
                { to: { element: { types: { anyOf: ['server', 'shared'] } } } },
                { to: { element: { type: 'server-module', captured: { module: '{{ from.element.captured.module }}' } } } },
                { to: { element: { type: 'server-module' }, file: { categories: 'module-public' } } },
              ],
            },
            {
              from: { element: { type: 'server' } },
              allow: [
                { to: { element: { types: { anyOf: ['server', 'shared'] } } } },
                { to: { element: { type: 'server-module' }, file: { categories: 'module-public' } } },
              ],
            },
          ],
        },
      ],
    },
  },
  {
    // errors at the edge (decision 040): a module refuses with a domain error's code and kind
    // (lib/errors.ts); only the app's error handler turns a kind into an HTTP status. No module
    // names a 4xx/5xx status in what it throws or constructs, reads `statusCode`, or answers one by
    // hand. (Success statuses, 201 or 204, and a contract's documented `errors` stay the routes'.)
    files: ['src/server/modules/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...ERRORS_AT_THE_EDGE],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/lib/errors'], importNames: ['STATUS_OF_KIND'], message: ERRORS_AT_THE_EDGE_MESSAGE }] },
      ],
    },
  },
);
