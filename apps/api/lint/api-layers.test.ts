import { RuleTester } from 'eslint';
import { afterAll, describe, it } from 'vitest';
import apiLayersRule from './api-layers.js';

// RuleTester reports through the test runner it is given.
Object.assign(RuleTester, { afterAll, describe, it });

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });
const src = '/repo/apps/api/src';

tester.run('api-layers', apiLayersRule, {
  valid: [
    { filename: `${src}/modules/chat/chat.service.ts`, code: "import { x } from '../accounts/index.js';" },
    { filename: `${src}/modules/chat/turn/admit.ts`, code: "import { x } from '../../billing/index.js';" },
    { filename: `${src}/modules/chat/chat.service.ts`, code: "import { x } from './chat.queries.js';" },
    { filename: `${src}/modules/billing/billing.service.ts`, code: "import { x } from '../../lib/errors.js';" },
    { filename: `${src}/app.ts`, code: "import { x } from './modules/chat/index.js';" },
    { filename: `${src}/plugins/caller.ts`, code: "import { x } from '../modules/billing/index.js';" },
    { filename: `${src}/modules/chat/files.test.ts`, code: "import { x } from '../documents/image-fixtures.js';" },
  ],
  invalid: [
    {
      filename: `${src}/modules/chat/chat.service.ts`,
      code: "import { x } from '../billing/billing.queries.js';",
      errors: [{ message: 'Use the billing module through its index.ts, not billing.queries.js.' }],
    },
    {
      filename: `${src}/modules/accounts/auth.service.ts`,
      code: "import { x } from '../billing/index.js';",
      errors: [{ message: 'accounts (layer 1) may not use billing (layer 3): modules use only lower layers.' }],
    },
    {
      filename: `${src}/modules/models/models.service.ts`,
      code: "export * from '../documents/index.js';",
      errors: [{ message: 'models (layer 3) may not use documents (layer 3): modules use only lower layers.' }],
    },
    {
      filename: `${src}/plugins/request-context.ts`,
      code: "import { x } from '../modules/accounts/accounts.queries.js';",
      errors: [{ message: 'Use the accounts module through its index.ts, not accounts.queries.js.' }],
    },
    {
      filename: `${src}/lib/route.ts`,
      code: "import { x } from '../modules/accounts/index.js';",
      errors: [
        { message: 'Only app.ts, server.ts, cli.ts and plugins use modules; lib, db and providers stay below them.' },
      ],
    },
    {
      filename: `${src}/modules/chat/chat.service.ts`,
      code: "import { x } from '../payments/index.js';",
      errors: [{ message: 'Give the module payments a layer in apps/api/lint/api-layers.js.' }],
    },
  ],
});
