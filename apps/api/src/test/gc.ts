import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Runs a full garbage collection every `ms` until the returned function is called: for tests of what must survive
 * one (a timer, a signal nothing else holds). Node exposes `gc` only with --expose-gc; set here, it is read from a
 * fresh context.
 */
export function collectGarbageEvery(ms: number): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const timer = setInterval(gc, ms);
  return () => clearInterval(timer);
}
