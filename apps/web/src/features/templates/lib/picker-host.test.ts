import { describe, expect, it, vi } from 'vitest';
import { findPickerHost, isExtensionOrigin, postTemplate, TEMPLATE_CHOSEN } from './picker-host';
import { makeTemplate } from '../test-fixtures';

const EXT = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

function fakeWindow(options: { framedBy?: string | null; referrer?: string; opener?: object | null }) {
  const parent = { postMessage: vi.fn() };
  const win: Record<string, unknown> = {
    opener: options.opener ?? null,
    location: { ancestorOrigins: options.framedBy ? [options.framedBy] : [] },
    document: { referrer: options.referrer ?? '' },
  };
  win.parent = options.framedBy !== undefined ? parent : win;
  return { win: win as never, parent };
}

describe('who opened the picker', () => {
  it('a frame of an extension page: that exact origin', () => {
    const { win, parent } = fakeWindow({ framedBy: EXT });
    expect(findPickerHost(win)).toEqual({ kind: 'extension', target: parent, origin: EXT });
  });

  it('a frame of a web page (Gmail, any site): not the extension, so nothing is posted', () => {
    expect(findPickerHost(fakeWindow({ framedBy: 'https://mail.google.com' }).win)).toEqual({ kind: 'standalone' });
    // No ancestorOrigins (not Chromium): the referrer says who framed it.
    expect(findPickerHost(fakeWindow({ framedBy: null, referrer: 'https://evil.example/page' }).win)).toEqual({
      kind: 'standalone',
    });
    const { win, parent } = fakeWindow({ framedBy: null, referrer: `${EXT}/sidepanel.html` });
    expect(findPickerHost(win)).toEqual({ kind: 'extension', target: parent, origin: EXT });
  });

  it('a window opened by an extension page: its opener, at that origin', () => {
    const opener = { postMessage: vi.fn() };
    expect(findPickerHost(fakeWindow({ opener, referrer: `${EXT}/popup.html` }).win)).toEqual({
      kind: 'extension',
      target: opener,
      origin: EXT,
    });
    expect(findPickerHost(fakeWindow({ opener, referrer: 'https://mail.google.com/' }).win)).toEqual({
      kind: 'standalone',
    });
    expect(findPickerHost(fakeWindow({}).win)).toEqual({ kind: 'standalone' });
  });

  it('a window of its own marked from=extension: the bridge on this window (the mark decides nothing else)', () => {
    expect(findPickerHost(fakeWindow({}).win, true)).toEqual({ kind: 'bridge' });
    expect(findPickerHost(fakeWindow({}).win, false)).toEqual({ kind: 'standalone' });
    // Framed by a web page with the mark: still nothing is posted.
    expect(findPickerHost(fakeWindow({ framedBy: 'https://evil.example' }).win, true)).toEqual({ kind: 'standalone' });
  });

  it('knows extension origins', () => {
    expect(isExtensionOrigin(EXT)).toBe(true);
    expect(isExtensionOrigin('moz-extension://0b4b5a6c-1234-4d5e-8f90-123456789abc')).toBe(true);
    expect(isExtensionOrigin('https://chrome-extension.example')).toBe(false);
    expect(isExtensionOrigin(`${EXT}.evil.example`)).toBe(false);
    expect(isExtensionOrigin(null)).toBe(false);
  });

  it('posts the template to that origin only', () => {
    const target = { postMessage: vi.fn() };
    postTemplate({ kind: 'extension', target: target as never, origin: EXT }, makeTemplate());
    expect(target.postMessage).toHaveBeenCalledWith(
      {
        type: TEMPLATE_CHOSEN,
        template: { id: makeTemplate().id, kind: 'mail', title: 'Thanks', body: makeTemplate().body, language: null },
      },
      EXT,
    );
  });
});
