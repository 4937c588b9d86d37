import { createApiClient } from '@parley/api-client';
import { describe, expect, it, vi } from 'vitest';
import { createMessageListener } from '../../platform/messaging/router';
import type { SenderContext } from '../../platform/messaging/senders';
import {
  createEditMenu,
  createImageEditorEntry,
  EDIT_MENU_ID,
  editMenuTitle,
  imageKind,
  problemOf,
  uploadName,
} from './background';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0]);
const IMAGE_ID = '5b0c8f7e-1a2b-4c3d-8e9f-000000000001';
const API = 'http://api.test';
const WEB_ORIGIN = 'http://web.test';

type Route = (url: string, init: RequestInit) => Response | Promise<Response>;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const bytes = (data: Uint8Array | string, type = '') =>
  new Response(typeof data === 'string' ? data : new Uint8Array(data), { headers: { 'content-type': type } });

/** The entry over the background's real API client (as app/background.ts wires it), with a fake fetch for both. */
function setup({ token = 'tok-1' as string | null, site, api }: { token?: string | null; site?: Route; api?: Route }) {
  let current = token;
  const apiFetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) =>
    (api ?? (() => json(200, { status: 200, message: 'OK', data: { image: { id: IMAGE_ID } } })))(String(input), init),
  );
  const siteFetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) =>
    (site ?? (() => bytes(PNG, 'image/png')))(String(input), init),
  );
  const client = createApiClient({
    baseUrl: API,
    token: { get: () => current, drop: () => void (current = null) },
    language: () => 'es',
    fetch: apiFetch as typeof fetch,
  });
  const openTab = vi.fn(async () => undefined);
  const entry = createImageEditorEntry({
    client,
    ready: Promise.resolve(),
    hasToken: () => current !== null,
    webOrigin: WEB_ORIGIN,
    openTab,
    fetch: siteFetch as typeof fetch,
  });
  return { entry, openTab, apiFetch, siteFetch };
}

const editor = (query: string) => `${WEB_ORIGIN}/image-editor${query}`;

describe('what the image is', () => {
  it('PNG and JPEG by their bytes; other images; and what is no image', () => {
    expect(imageKind(PNG)).toBe('image/png');
    expect(imageKind(JPEG)).toBe('image/jpeg');
    expect(imageKind(GIF)).toBe('image');
    expect(imageKind(new TextEncoder().encode('  <svg xmlns="http://www.w3.org/2000/svg">'))).toBe('image');
    expect(imageKind(new TextEncoder().encode('<!doctype html><title>x</title>'))).toBeNull();
    expect(imageKind(new Uint8Array())).toBeNull();
  });

  it('names the upload after the address, with the extension of its bytes', () => {
    expect(uploadName('https://cdn.example/photos/Beach%20day.webp?w=800', 'image/jpeg')).toBe('Beach day.jpg');
    expect(uploadName('https://cdn.example/', 'image/png')).toBe('image.png');
    expect(uploadName('data:image/png;base64,AAAA', 'image/png')).toBe('image.png');
  });
});

describe('Edit with Parley', () => {
  it('fetches the image with the page’s cookies, uploads it with the token, and opens the editor with it', async () => {
    const { entry, openTab, apiFetch, siteFetch } = setup({});
    const tab = { id: 7, index: 2, windowId: 1 };
    await expect(entry.editImage('https://photos.example/cat.png', tab)).resolves.toEqual({
      url: editor(`/${IMAGE_ID}`),
    });
    expect(siteFetch).toHaveBeenCalledWith('https://photos.example/cat.png', { credentials: 'include' });
    const [url, init] = apiFetch.mock.calls[0]!;
    expect(url).toBe(`${API}/api/images/upload`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok-1');
    expect(new Headers(init?.headers).get('lang-type')).toBe('es');
    const part = (init?.body as FormData).get('image') as File;
    expect(part.name).toBe('cat.png');
    expect(part.type).toBe('image/png');
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([...PNG]);
    expect(openTab).toHaveBeenCalledWith(editor(`/${IMAGE_ID}`), tab);
  });

  it('takes a data: image too, typed by its bytes (a JPEG said to be PNG is sent as JPEG)', async () => {
    const { entry, apiFetch, siteFetch } = setup({ site: () => bytes(JPEG, 'image/png') });
    const src = `data:image/png;base64,${btoa(String.fromCharCode(...JPEG))}`;
    await entry.editImage(src);
    expect(siteFetch.mock.calls[0]![0]).toBe(src);
    const part = (apiFetch.mock.calls[0]![1]?.body as FormData).get('image') as File;
    expect([part.name, part.type]).toEqual(['image.jpg', 'image/jpeg']);
  });

  it('refuses other image kinds and what is no image before uploading, and the editor says why', async () => {
    const gif = setup({ site: () => bytes(GIF, 'image/gif') });
    await expect(gif.entry.editImage('https://x.example/a.gif')).resolves.toEqual({
      url: editor('?problem=formatUnsupported'),
    });
    expect(gif.apiFetch).not.toHaveBeenCalled();
    expect(gif.openTab).toHaveBeenCalledWith(editor('?problem=formatUnsupported'), undefined);

    // An HTML page behind an image's address (a login wall, a hotlink page).
    const html = setup({ site: () => bytes('<html><body>Sign in</body></html>', 'image/png') });
    await expect(html.entry.editImage('https://x.example/a.png')).resolves.toEqual({
      url: editor('?problem=notImage'),
    });
    expect(html.apiFetch).not.toHaveBeenCalled();
  });

  it('a site that refuses, an address it cannot fetch, and no sign-in each open the editor with the reason', async () => {
    const refused = setup({ site: () => new Response('no', { status: 403 }) });
    expect(await refused.entry.editImage('https://x.example/a.png')).toEqual({ url: editor('?problem=fetchFailed') });
    const blob = setup({});
    expect(await blob.entry.editImage('blob:https://x.example/1')).toEqual({ url: editor('?problem=fetchFailed') });
    expect(blob.siteFetch).not.toHaveBeenCalled();
    const signedOut = setup({ token: null });
    expect(await signedOut.entry.editImage('https://x.example/a.png')).toEqual({
      url: editor('?problem=signedOut'),
    });
    expect(signedOut.siteFetch).not.toHaveBeenCalled();
  });

  it('maps the server’s refusals to the editor’s words; a 409 ends the session', async () => {
    const refusal = (status: number, code: string) => () => json(status, { status, code, message: 'x' });
    const cases: [number, string, string][] = [
      [415, 'IMAGE_FORMAT_UNSUPPORTED', 'formatUnsupported'],
      [400, 'IMAGE_TOO_LARGE', 'tooLarge'],
      [400, 'INVALID_FILE', 'notImage'],
      [502, 'PROVIDER_ERROR', 'uploadFailed'],
      [409, 'SESSION_REPLACED', 'signedOut'],
    ];
    for (const [status, code, problem] of cases) {
      const { entry } = setup({ api: refusal(status, code) });
      expect(await entry.editImage('https://x.example/a.png')).toEqual({ url: editor(`?problem=${problem}`) });
    }
    expect(problemOf(new Error('network'))).toBe('uploadFailed');
  });

  it('the menu click runs it for that image and that tab; other menus are not its business', async () => {
    const { entry, openTab } = setup({});
    const tab = { id: 3, index: 0, windowId: 1 } as never;
    entry.onMenuClick({ menuItemId: 'parley-chat-about-image', srcUrl: 'https://x.example/a.png' } as never, tab);
    entry.onMenuClick({ menuItemId: EDIT_MENU_ID, srcUrl: 'https://x.example/a.png' } as never, tab);
    await vi.waitFor(() => expect(openTab).toHaveBeenCalledTimes(1));
    expect(openTab).toHaveBeenCalledWith(editor(`/${IMAGE_ID}`), tab);
  });
});

describe('EDIT_IMAGE, the same work as a message', () => {
  const ctx: SenderContext = {
    extensionId: 'ourid',
    extensionOrigin: 'chrome-extension://ourid',
    webOrigin: 'http://localhost:3000',
  };
  const send = (listener: ReturnType<typeof createMessageListener>, sender: object, data: unknown) =>
    new Promise((resolve) => {
      if (!listener({ parley: 1, type: 'EDIT_IMAGE', data }, sender as never, resolve)) resolve('no answer');
    });

  it('answers our pages only, and checks the address', async () => {
    const { entry, openTab } = setup({});
    const listener = createMessageListener(entry.handlers, () => ctx);
    const ours = { id: 'ourid', url: 'chrome-extension://ourid/options.html' };
    await expect(send(listener, ours, { srcUrl: 'https://x.example/a.png' })).resolves.toEqual({
      ok: true,
      data: { url: editor(`/${IMAGE_ID}`) },
    });
    await expect(send(listener, ours, { srcUrl: 'javascript:alert(1)' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    // A content script (any site) may not make the person upload things.
    const site = { id: 'ourid', url: 'https://evil.example/', tab: { id: 1 }, frameId: 0 };
    await expect(send(listener, site, { srcUrl: 'https://x.example/a.png' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(openTab).toHaveBeenCalledTimes(1);
  });
});

describe('the menu item', () => {
  it('is created on images with the title of the person’s language, again when the language changes', async () => {
    const menus = { create: vi.fn(), remove: vi.fn(async () => undefined) };
    const sync = createEditMenu(menus as never);
    await sync('fr');
    await sync('fr');
    await sync('xx');
    expect(menus.create.mock.calls.map(([item]) => item)).toEqual([
      { id: EDIT_MENU_ID, title: 'Modifier avec Parley', contexts: ['image'] },
      { id: EDIT_MENU_ID, title: 'Edit with Parley', contexts: ['image'] },
    ]);
    expect(editMenuTitle('es')).toBe('Editar con Parley');
  });
});
