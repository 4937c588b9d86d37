import { describe, expect, it, vi } from 'vitest';
import { createMessageListener } from './router';
import { classifySender, type SenderContext, type SenderLike } from './senders';

const ctx: SenderContext = {
  extensionId: 'lmnfffjpjllagclooeeioadedodboamk',
  extensionOrigin: 'chrome-extension://lmnfffjpjllagclooeeioadedodboamk',
  webOrigin: 'http://localhost:3000',
};
const ours = { id: ctx.extensionId };
const tab = { id: 7, windowId: 1 };

describe('classifySender', () => {
  it('places our pages and the background by their URL under our origin', () => {
    expect(classifySender({ ...ours, url: `${ctx.extensionOrigin}/sidepanel.html` }, ctx)).toBe('extension');
    expect(classifySender({ ...ours, url: `${ctx.extensionOrigin}/extensionIndex.html`, tab, frameId: 0 }, ctx)).toBe(
      'extension',
    );
    expect(
      classifySender({ ...ours, url: `${ctx.extensionOrigin}/options.html`, origin: ctx.extensionOrigin }, ctx),
    ).toBe('extension');
  });

  it('knows the web app bridge only in the top frame of the exact web origin', () => {
    const bridge = { ...ours, tab, frameId: 0, url: 'http://localhost:3000/home', origin: 'http://localhost:3000' };
    expect(classifySender(bridge, ctx)).toBe('web-bridge');
    expect(classifySender({ ...bridge, frameId: 3 }, ctx)).toBe('content-script');
    expect(classifySender({ ...bridge, url: 'http://localhost:3001/home', origin: undefined }, ctx)).toBe(
      'content-script',
    );
    expect(classifySender({ ...bridge, url: 'https://localhost:3000/home', origin: undefined }, ctx)).toBe(
      'content-script',
    );
    expect(classifySender({ ...bridge, url: 'http://localhost:3000.evil.test/', origin: undefined }, ctx)).toBe(
      'content-script',
    );
    expect(classifySender({ ...bridge, url: 'http://evil.test/?http://localhost:3000/', origin: undefined }, ctx)).toBe(
      'content-script',
    );
    // URL and origin must agree (an about:blank or sandboxed frame inherits one but not the other).
    expect(classifySender({ ...bridge, origin: 'null' }, ctx)).toBe('content-script');
  });

  it('treats other extensions, pages and unplaceable senders as foreign', () => {
    expect(classifySender(undefined, ctx)).toBe('foreign');
    expect(classifySender({ id: 'someoneelse', url: `${ctx.extensionOrigin}/x.html` }, ctx)).toBe('foreign');
    expect(classifySender({ url: 'http://localhost:3000/', tab, frameId: 0 }, ctx)).toBe('foreign');
    expect(classifySender({ ...ours, url: 'https://example.com/' }, ctx)).toBe('foreign'); // no tab
    expect(classifySender({ ...ours, url: 'chrome-extension://otherid/page.html' }, ctx)).toBe('foreign');
  });

  it('places any other page of ours as a content script', () => {
    expect(classifySender({ ...ours, tab, frameId: 0, url: 'https://mail.google.com/mail/u/0/' }, ctx)).toBe(
      'content-script',
    );
  });
});

describe('message listener', () => {
  const envelope = (type: string, data?: unknown) => ({ parley: 1, type, data });
  const hostile: SenderLike = { ...ours, tab, frameId: 0, url: 'https://evil.test/' };
  const bridge: SenderLike = { ...ours, tab, frameId: 0, url: 'http://localhost:3000/login' };
  const page: SenderLike = { ...ours, url: `${ctx.extensionOrigin}/sidepanel.html` };

  function setup() {
    const setCookie = vi.fn(() => ({ signedIn: true, userId: 'u1' }));
    const logout = vi.fn(() => ({ signedIn: false, userId: null }));
    const getCookie = vi.fn(() => ({ signedIn: true, userId: 'u1' }));
    const listener = createMessageListener({ SET_COOKIE: setCookie, LOGOUT: logout, GET_COOKIE: getCookie }, () => ctx);
    const call = (message: unknown, sender: SenderLike) =>
      new Promise<unknown>((resolve) => {
        const async = listener(message, sender, resolve);
        if (!async) setTimeout(() => resolve('no answer'), 0);
      });
    return { setCookie, logout, getCookie, call };
  }

  it('refuses SET_COOKIE from a content script on another site, without running the handler', async () => {
    const { setCookie, call } = setup();
    const answer = await call(envelope('SET_COOKIE', { token: 'x'.repeat(40) }), hostile);
    expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(setCookie).not.toHaveBeenCalled();
  });

  it('accepts SET_COOKIE from the web app bridge and from our pages', async () => {
    const { setCookie, call } = setup();
    expect(await call(envelope('SET_COOKIE', { token: 'x'.repeat(40) }), bridge)).toMatchObject({ ok: true });
    expect(await call(envelope('SET_COOKIE', { token: null }), page)).toMatchObject({ ok: true });
    expect(setCookie).toHaveBeenCalledTimes(2);
  });

  it('lets content scripts ask public facts but not log out', async () => {
    const { logout, getCookie, call } = setup();
    expect(await call(envelope('GET_COOKIE'), hostile)).toMatchObject({ ok: true, data: { signedIn: true } });
    expect(await call(envelope('LOGOUT'), hostile)).toMatchObject({ ok: false, error: { status: 403 } });
    expect(await call(envelope('LOGOUT'), bridge)).toMatchObject({ ok: false });
    expect(getCookie).toHaveBeenCalledOnce();
    expect(logout).not.toHaveBeenCalled();
  });

  it('never answers foreign senders, stray messages or types it does not handle', async () => {
    const { setCookie, call } = setup();
    expect(await call(envelope('SET_COOKIE', { token: 'x' }), { id: 'other', url: 'http://localhost:3000/' })).toBe(
      'no answer',
    );
    expect(await call({ type: 'SET_COOKIE', data: { token: 'x' } }, bridge)).toBe('no answer');
    expect(await call(envelope('__proto__'), bridge)).toBe('no answer');
    expect(await call(envelope('READ_PAGE'), page)).toBe('no answer');
    expect(setCookie).not.toHaveBeenCalled();
  });

  it('answers a failing handler with its error', async () => {
    const listener = createMessageListener(
      {
        GET_COOKIE: () => {
          throw Object.assign(new Error('boom'), { code: 'X', status: 418 });
        },
      },
      () => ctx,
    );
    const answer = await new Promise((resolve) => listener(envelope('GET_COOKIE'), page, resolve));
    expect(answer).toEqual({ ok: false, error: { status: 418, code: 'X', message: 'boom' } });
  });
});
