// Type-checks every workspace that has a tsconfig.json (packages are checked through their own config too), as many
// at once as the machine has cores (each `tsc` uses one; at most TYPECHECK_JOBS, 4 by default, as each may take
// 1–2 GB), each project's errors printed together once it ends.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const projects = [
  // The largest first, so that the last to start is a short one.
  'apps/api',
  'apps/web',
  'apps/extension',
  'e2e',
  'bench',
  'packages/contract',
  'packages/api-client',
  'packages/ui',
  'packages/i18n',
].filter((p) => existsSync(`${p}/tsconfig.json`));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsc', '--noEmit', '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ project, ok: false, output: String(error) }));
    child.on('close', (code) => resolve({ project, ok: code === 0, output: Buffer.concat(output).toString() }));
  });
}

const queue = [...projects];
const failed = [];
async function worker() {
  for (let project = queue.shift(); project; project = queue.shift()) {
    const { ok, output } = await check(project);
    if (output.trim()) process.stdout.write(`\n${project}:\n${output}`);
    if (!ok) failed.push(project);
  }
}
const jobs = Math.max(1, Math.min(availableParallelism(), Number(process.env.TYPECHECK_JOBS) || 4, projects.length));
await Promise.all(Array.from({ length: jobs }, worker));
if (failed.length) {
  console.log(`typecheck: ${failed.length} of ${projects.length} projects failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`typecheck: ${projects.length} projects clean`);
