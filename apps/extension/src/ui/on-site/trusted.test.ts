import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { contentScriptFiles, src } from '../../test/content-script-files';
import { listenTrusted, onTrusted } from './trusted';

describe('onTrusted', () => {
  it('runs the handler for a person’s events only', () => {
    const handler = vi.fn();
    const wrapped = onTrusted(handler);
    wrapped({ isTrusted: false } as Event);
    expect(handler).not.toHaveBeenCalled();
    const real = { isTrusted: true } as Event;
    wrapped(real);
    expect(handler).toHaveBeenCalledWith(real);
  });

  it('listenTrusted ignores what a script dispatches and removes its listener', () => {
    const target = new EventTarget();
    const handler = vi.fn();
    const add = vi.spyOn(target, 'addEventListener');
    const stop = listenTrusted(target, 'click', handler, true);
    target.dispatchEvent(new Event('click'));
    expect(handler).not.toHaveBeenCalled();
    const listener = add.mock.calls[0]![1] as (event: Event) => void;
    listener({ isTrusted: true } as Event);
    expect(handler).toHaveBeenCalledTimes(1);
    const remove = vi.spyOn(target, 'removeEventListener');
    stop();
    expect(remove).toHaveBeenCalledWith('click', listener, true);
  });
});

describe('content scripts listen through onTrusted (so a new handler cannot forget)', () => {
  const files = contentScriptFiles();

  it('finds the content scripts and the on-site UI they are built from', () => {
    const names = files.map((file) => path.relative(src, file));
    expect(names).toEqual(
      expect.arrayContaining([
        'entrypoints/page.content.ts',
        'entrypoints/web-bridge.content.ts',
        'features/quick-access/quick-access.ts',
        'features/quick-access/triggers.ts',
        'features/instant-reply/instant-reply.ts',
        'features/summaries/summaries.ts',
        'features/search-ai/search-ai.ts',
      ]),
    );
  });

  it('no file of theirs adds a listener of its own (addEventListener, onclick = …, onClick={…})', () => {
    const own = /\.addEventListener\(|\.on[a-z]+\s*=[^=]|\bon[A-Z][A-Za-z]*=\{/;
    const offenders = files
      .filter((file) => !file.endsWith(`on-site${path.sep}trusted.ts`))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${path.relative(src, file)}:${i + 1}` }))
          .filter(({ line }) => own.test(line))
          .map(({ line, at }) => `${at}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the region picker (injected on its own, it cannot import the helper) checks isTrusted in every listener', () => {
    const code = readFileSync(path.join(src, 'features/capture/region.ts'), 'utf8');
    const listeners = code.match(/\.addEventListener\(/g) ?? [];
    const checks = code.match(/!event\.isTrusted/g) ?? [];
    expect(listeners.length).toBeGreaterThan(0);
    expect(checks.length).toBe(listeners.length);
    expect(code).toContain("attachShadow({ mode: 'closed' })");
  });
});
