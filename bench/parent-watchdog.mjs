// Preloaded into the API server processes the benchmarks start (`--import ./bench/parent-watchdog.mjs`):
// if the benchmark script dies without stopping its server (e.g. killed), the server notices that its parent
// changed and stops itself with SIGTERM, so no server is left running. Plain JS: no transform, < 1 ms.
const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }
}, 500);
timer.unref();
