import path from 'node:path';
import { parseArgs } from 'node:util';
import { emailSchema, MAX_SEATS, nameSchema, PAID_PLAN_IDS, passwordSchema, PLAN_DURATIONS } from '@parley/contract';
import { translate } from '@parley/i18n/server';
import { ConfigError, loadConfig } from './config.js';
import { DomainError } from './lib/errors.js';
import { DatabaseInUseError, openDatabase } from './db/client.js';
import { createPasswordHasher } from './lib/passwords.js';
import { createMemoryStore } from './lib/rate-limit.js';
import pino from 'pino';
import { createUserService } from './modules/accounts/index.js';
import { createBillingService, createPaymentsService } from './modules/billing/index.js';
import type { Mailer } from './providers/mail/index.js';
import { createStripeProvider } from './providers/payments/stripe.js';

const cliLog = pino({ level: 'warn' });

const USAGE = `Parley administration

  npm run admin -- create-admin --email you@example.com --password '<at least 8 characters>' [--name 'Your Name']
      Creates a verified site admin (or promotes an existing account and sets its password). The password may come
      from the environment instead (ADMIN_PASSWORD=… npm run admin -- create-admin --email …): npm prints the
      command line it runs, so a password given with --password shows on the screen.

  npm run admin -- create-codes [--count 10]
      Prints new single-use app-deal licence codes (for /appsumo/signup).

  npm run admin -- set-plan --email you@example.com --plan pro|plus|team|byok [--duration month|year] [--seats 3] [--until 2027-12-31]
      Puts an account on a paid plan without payment (its allowance at once; until the date, or until removed).

  npm run admin -- remove-plan --email you@example.com
      Ends a plan given with set-plan: the account returns to its own plan (free, early bird, app deal).

  npm run admin -- stripe-sync
      Creates in Stripe the products and prices that are missing (lookup keys parley_<plan>_<month|year>, and
      _student), from the plan catalogue (PLANS_FILE). Safe to run again: what exists is left alone.

Uses the same configuration as the server (DATABASE_URL, DATA_DIR).`;

const COMMANDS = ['create-admin', 'create-codes', 'set-plan', 'remove-plan', 'stripe-sync'] as const;

/** The command line never mails anyone. */
const noMail: Mailer = {
  send: async () => {
    throw new Error('the command line does not send mail');
  },
  close: async () => {},
};

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      count: { type: 'string' },
      plan: { type: 'string' },
      duration: { type: 'string' },
      seats: { type: 'string' },
      until: { type: 'string' },
    },
  });
  if (!COMMANDS.includes(command as (typeof COMMANDS)[number])) {
    console.log(USAGE);
    // Asking for help is not a mistake; an unknown command is.
    process.exit(!command || ['help', '--help', '-h'].includes(command) ? 0 : 1);
  }

  const config = loadConfig(process.env);
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  const billing = createBillingService({
    db: database.db,
    ledger: database.ledger,
    log: cliLog,
    plans: config.payments.catalogue.plans,
  });
  const users = createUserService({
    db: database.db,
    passwords: createPasswordHasher(config.argon2MemoryKib),
    billing: billing.forAccounts,
    // Nothing here is redeemed on someone's behalf: an in-memory count is enough.
    limits: createMemoryStore(),
    rateLimits: config.rateLimits,
  });
  const payments = createPaymentsService({
    db: database.db,
    provider: config.payments.stripe ? createStripeProvider(config.payments.stripe) : null,
    catalogue: config.payments.catalogue,
    trialDays: config.payments.trialDays,
    studentDomains: config.payments.studentDomains,
    graceDays: config.payments.graceDays,
    publicUrl: config.publicUrl,
    mailer: noMail,
    log: cliLog,
  });
  try {
    if (command === 'set-plan' || command === 'remove-plan') {
      const email = emailSchema.safeParse(values.email);
      const userId = email.success ? await users.idOfEmail(email.data) : null;
      if (!userId) {
        console.error(`${command} needs --email of an existing account.`);
        process.exitCode = 1;
        return;
      }
      if (command === 'remove-plan') {
        await payments.removeAssignedPlan(userId);
        console.log(`Plan removed: ${values.email} is back on their own plan.`);
        return;
      }
      const plan = PAID_PLAN_IDS.find((p) => p === values.plan);
      const duration = PLAN_DURATIONS.find((d) => d === (values.duration ?? 'month'));
      const seats = Number(values.seats ?? 1);
      const until = values.until ? new Date(`${values.until}T23:59:59Z`) : null;
      const problems = [
        !plan && `--plan must be one of ${PAID_PLAN_IDS.join(', ')}`,
        !duration && '--duration must be month or year',
        (!Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS) &&
          `--seats must be a whole number from 1 to ${MAX_SEATS}`,
        plan && plan !== 'team' && seats !== 1 && 'only the team plan has more than one seat',
        until && (Number.isNaN(until.getTime()) || until <= new Date()) && '--until must be a future date (YYYY-MM-DD)',
      ].filter(Boolean);
      if (problems.length) {
        console.error(problems.join('\n'));
        process.exitCode = 1;
        return;
      }
      await payments.assignPlan(userId, { plan: plan!, duration: duration!, seats, until });
      console.log(
        `${values.email} is on ${plan}${seats > 1 ? ` (${seats} seats)` : ''}${until ? ` until ${values.until}` : ''}.`,
      );
    } else if (command === 'stripe-sync') {
      if (!config.payments.stripe) {
        console.error('stripe-sync needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.');
        process.exitCode = 1;
        return;
      }
      const { created, found } = await payments.syncCatalogue();
      for (const key of created) console.log(`created ${key}`);
      for (const key of found) console.log(`exists  ${key}`);
      console.log(`${created.length} price(s) created, ${found.length} already there.`);
    } else if (command === 'create-admin') {
      const email = emailSchema.safeParse(values.email);
      const password = passwordSchema.safeParse(values.password ?? process.env.ADMIN_PASSWORD);
      const name = nameSchema.safeParse(values.name ?? values.email?.split('@')[0]);
      if (!email.success || !password.success || !name.success) {
        console.error(
          'create-admin needs --email (a valid address) and --password or ADMIN_PASSWORD (8 to 128 characters).',
        );
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
  console.error(
    error instanceof ConfigError || error instanceof DatabaseInUseError
      ? error.message
      : error instanceof DomainError
        ? translate('en', 'api', `errors.${error.code}`, error.params)
        : error,
  );
  process.exit(1);
});
