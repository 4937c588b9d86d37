// Type-checks every workspace that has a tsconfig.json (packages are checked through their own config too).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = [
  'packages/contract',
  'packages/api-client',
  'packages/i18n',
  'packages/ui',
  'apps/api',
  'apps/web',
  'apps/extension',
  'e2e',
  'bench',
].filter((p) => existsSync(`${p}/tsconfig.json`));

let failed = false;
for (const project of projects) {
  try {
    execFileSync('npx', ['tsc', '--noEmit', '-p', project], { stdio: 'inherit' });
  } catch {
    failed = true;
  }
}
if (failed) process.exit(1);
console.log(`typecheck: ${projects.length} projects clean`);
