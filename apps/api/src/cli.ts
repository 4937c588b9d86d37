import path from 'node:path';
import { parseArgs } from 'node:util';
import { emailSchema, nameSchema, passwordSchema } from '@parley/contract';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createPasswordHasher } from './lib/passwords.js';
import { createMemoryStore } from './lib/rate-limit.js';
import pino from 'pino';
import { createUserService } from './modules/accounts/index.js';
import { createBillingService } from './modules/billing/index.js';

const cliLog = pino({ level: 'warn' });

const USAGE = `Parley administration

  npm run admin -- create-admin --email you@example.com --password '<at least 8 characters>' [--name 'Your Name']
      Creates a verified site admin (or promotes an existing account and sets its password).

  npm run admin -- create-codes [--count 10]
      Prints new single-use app-deal licence codes (for /appsumo/signup).

Uses the same configuration as the server (DATABASE_URL, DATA_DIR).`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      count: { type: 'string' },
    },
  });
  if (command !== 'create-admin' && command !== 'create-codes') {
    console.log(USAGE);
    process.exit(command ? 1 : 0);
  }

  const config = loadConfig(process.env);
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  const billing = createBillingService({ db: database.db, ledger: database.ledger, log: cliLog });
  const users = createUserService({
    db: database.db,
    passwords: createPasswordHasher(config.argon2MemoryKib),
    billing: billing.forAccounts,
    // Nothing here is redeemed on someone's behalf: an in-memory count is enough.
    limits: createMemoryStore(),
    rateLimits: config.rateLimits,
  });
  try {
    if (command === 'create-admin') {
      const email = emailSchema.safeParse(values.email);
      const password = passwordSchema.safeParse(values.password);
      const name = nameSchema.safeParse(values.name ?? values.email?.split('@')[0]);
      if (!email.success || !password.success || !name.success) {
        console.error('create-admin needs --email (a valid address) and --password (8 to 128 characters).');
        process.exitCode = 1;
        return;
      }
      const admin = await users.createAdmin({ email: email.data, password: password.data, name: name.data });
      console.log(`Site admin ready: ${admin.email} (id ${admin.id})`);
    } else {
      const count = Number(values.count ?? 10);
      if (!Number.isInteger(count) || count < 1 || count > 10000) {
        console.error('--count must be a whole number from 1 to 10000.');
        process.exitCode = 1;
        return;
      }
      const codes = await users.createLicenceCodes(count);
      console.log(codes.join('\n'));
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
