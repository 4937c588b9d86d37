import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliArg, cliPort } from './cli.js';

/**
 * s3rver (CommonJS, untyped) runs in a child process: its ListObjectsV2 continuation tokens use DES, which Node's
 * OpenSSL 3 offers only with the legacy provider, and that flag is for this fake alone, not the process under test.
 * The child prints its port, and exits when its stdin closes (so it never outlives the parent).
 */
const CHILD = `
const S3rver = require(process.argv[1]);
const [directory, port, bucket] = process.argv.slice(2);
new S3rver({ address: '127.0.0.1', port: Number(port), directory, silent: true, configureBuckets: [{ name: bucket }] })
  .run()
  .then((address) => process.stdout.write(JSON.stringify({ port: address.port }) + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** s3rver checks signatures made with these. */
export const FAKE_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3-compatible server on 127.0.0.1 keeping objects under `directory`, with `bucket` created: for tests (port 0)
 * and for trying S3 storage locally (`npm run fake-s3`). `env` is what Parley needs to use it.
 */
export async function startFakeS3({
  directory,
  bucket = 'parley',
  port = 0,
}: {
  directory: string;
  bucket?: string;
  port?: number;
}) {
  await mkdir(directory, { recursive: true });
  const s3rver = createRequire(import.meta.url).resolve('s3rver');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '--no-deprecation', '-e', CHILD, s3rver, directory, String(port), bucket],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = await new Promise<{ port: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { port: number });
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code ?? 'signal'})`)));
  });
  const endpoint = `http://127.0.0.1:${started.port}`;
  return {
    endpoint,
    bucket,
    /** The options of createS3Storage. */
    options: { bucket, endpoint, region: 'us-east-1', forcePathStyle: true, ...FAKE_S3_CREDENTIALS },
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: FAKE_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: FAKE_S3_CREDENTIALS.secretAccessKey,
    },
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const directory = path.resolve(cliArg('--dir') ?? 'data/s3');
  const fake = await startFakeS3({
    directory,
    port: cliPort(4569),
    bucket: cliArg('--bucket'),
  });
  process.stdout.write(`fake S3 on ${fake.endpoint}, bucket ${fake.bucket}, objects under ${directory}\n`);
  process.stdout.write(
    `Start Parley with:\n${Object.entries(fake.env)
      .map(([name, value]) => `  ${name}=${value}`)
      .join('\n')}\n`,
  );
}
