import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DatabaseInUseError, openDatabase } from './db/client.js';
import path from 'node:path';

const started = performance.now();

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const database = await openDatabase(
  config.databaseUrl
    ? {
        kind: 'postgres',
        url: config.databaseUrl,
        onIdleError: (error) => console.error('database connection lost:', error.message),
      }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
).catch((error: unknown) => {
  if (error instanceof DatabaseInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
});
const app = await buildApp({ config, database });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal} received, closing`);
  const timer = setTimeout(() => {
    app.log.error('shutdown took too long, exiting');
    process.exit(1);
  }, 10_000);
  timer.unref();
  await app.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  const hint =
    code === 'EADDRINUSE'
      ? `Port ${config.port} on ${config.host} is taken by another program: stop it, or start Parley with PORT=<another port>`
      : code === 'EACCES'
        ? `Not allowed to listen on port ${config.port}: use a port above 1023, or set PORT`
        : undefined;
  if (hint) app.log.fatal(hint);
  else app.log.fatal({ err: error }, 'could not start listening');
  await app.close(); // the database is closed cleanly
  process.exit(1);
}
app.log.info(
  `Parley is ready on ${config.publicUrl} (database: ${database.kind}, started in ${Math.round(performance.now() - started)} ms)`,
);
