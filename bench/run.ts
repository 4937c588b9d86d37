// All benchmarks in sequence: `npm run bench`. Each part also runs alone (bench/profile.ts, startup.ts, web-size.ts,
// chat-stream.ts, images.ts).
// Not part of `npm test`.
import { runChatStream } from './chat-stream.js';
import { runExtension } from './extension.js';
import { runImages } from './images.js';
import { cleanupAll, isMain, machineSummary, runAsScript } from './lib.js';
import { runProfile } from './profile.js';
import { runStartup } from './startup.js';
import { runWebSize } from './web-size.js';

export async function runAll(): Promise<void> {
  const started = performance.now();
  console.log(`Parley benchmarks — ${new Date().toISOString()}`);
  console.log(`machine: ${machineSummary()}`);
  const failures: string[] = [];
  for (const [name, part] of [
    ['profile', runProfile],
    ['startup', runStartup],
    ['web-size', runWebSize],
    ['chat-stream', runChatStream],
    ['images', runImages],
    ['extension', runExtension],
  ] as const) {
    try {
      await part();
    } catch (error) {
      failures.push(name);
      console.error(`\n${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      await cleanupAll();
    }
  }
  console.log(
    `\nall benchmarks done in ${Math.round((performance.now() - started) / 1000)} s${failures.length ? `; FAILED: ${failures.join(', ')}` : ''}`,
  );
  if (failures.length) process.exitCode = 1;
}

if (isMain(import.meta.url)) await runAsScript(runAll);
