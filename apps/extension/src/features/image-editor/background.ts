import { ApiError, type ApiClient } from '@parley/api-client';
import { uploadImage } from '@parley/api-client/images';
import { IMAGE_UPLOAD_MAX_MB } from '@parley/contract/values';
import en from '@parley/i18n/locales/en/extension.json';
import es from '@parley/i18n/locales/es/extension.json';
import fr from '@parley/i18n/locales/fr/extension.json';
import type { browser, Browser } from 'wxt/browser';
import type { ProtocolMap } from '../../platform/messaging/protocol';
import { MessageError, type Handler } from '../../platform/messaging/router';

export const EDIT_MENU_ID = 'parley-edit-image';

const MENU_TITLES: Record<string, string> = {
  en: en.imageEditor.menu,
  es: es.imageEditor.menu,
  fr: fr.imageEditor.menu,
};
export const editMenuTitle = (language: string) => MENU_TITLES[language] ?? MENU_TITLES.en!;

/** Longest image address accepted (a data: URL of an image within the upload limit, in base64, fits). */
const MAX_SRC_LENGTH = Math.ceil((IMAGE_UPLOAD_MAX_MB * 1024 * 1024 * 4) / 3) + 1024;
const MAX_BYTES = IMAGE_UPLOAD_MAX_MB * 1024 * 1024;

/**
 * Why the editor opened without the image; the web app's editor says it in the person's language
 * (`/image-editor?problem=…`, an allowlist of these words only: no text from here reaches the page).
 */
export type EditProblem = 'signedOut' | 'fetchFailed' | 'notImage' | 'formatUnsupported' | 'tooLarge' | 'uploadFailed';

/** PNG or JPEG by their signatures; `image` for another image kind; null for what is no image at all. */
export function imageKind(head: Uint8Array): 'image/png' | 'image/jpeg' | 'image' | null {
  const starts = (...sig: number[]) => sig.every((b, i) => head[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  const text = new TextDecoder('latin1').decode(head.subarray(0, 64)).trimStart().toLowerCase();
  if (
    starts(0x47, 0x49, 0x46, 0x38) || // GIF
    (starts(0x52, 0x49, 0x46, 0x46) && head[8] === 0x57 && head[9] === 0x45) || // WebP
    starts(0x42, 0x4d) || // BMP
    (head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70) || // AVIF, HEIC
    text.startsWith('<svg') ||
    (text.startsWith('<?xml') && text.includes('<svg'))
  )
    return 'image';
  return null;
}

/** A file name for the upload, from the image's address, with the extension of what the bytes are. */
export function uploadName(srcUrl: string, mediaType: 'image/png' | 'image/jpeg'): string {
  const extension = mediaType === 'image/png' ? 'png' : 'jpg';
  let base = 'image';
  if (!srcUrl.startsWith('data:')) {
    try {
      const last = decodeURIComponent(new URL(srcUrl).pathname.split('/').pop() ?? '');
      base =
        last
          .replace(/\.[a-z0-9]{2,5}$/i, '')
          .replace(/[\\/:*?"<>|\s]+/g, ' ')
          .trim()
          .slice(0, 120) || 'image';
    } catch {
      base = 'image';
    }
  }
  return `${base}.${extension}`;
}

/** The error of an upload, as the word the editor shows. */
export function problemOf(error: unknown): EditProblem {
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 409) return 'signedOut';
    if (error.code === 'IMAGE_FORMAT_UNSUPPORTED') return 'formatUnsupported';
    if (error.code === 'INVALID_FILE' || error.code === 'MALFORMED_UPLOAD') return 'notImage';
    if (['IMAGE_TOO_LARGE', 'FILE_TOO_LARGE', 'PAYLOAD_TOO_LARGE'].includes(error.code)) return 'tooLarge';
  }
  return 'uploadFailed';
}

/** The web app's editor with the image, or with the reason it is not there. */
export const editorUrl = (webOrigin: string, opened: { imageId: string } | { problem: EditProblem }) =>
  new URL(
    'imageId' in opened
      ? `/image-editor/${encodeURIComponent(opened.imageId)}`
      : `/image-editor?problem=${opened.problem}`,
    webOrigin,
  ).toString();

type Tab = Pick<Browser.tabs.Tab, 'id' | 'index' | 'windowId'>;

export type ImageEditorEntryDeps = {
  /** The background's API client (the token, lang-type and the 409 / 401 rules are its business). */
  client: ApiClient;
  /** Resolves when the stored session has been read. */
  ready: Promise<unknown>;
  hasToken: () => boolean;
  /** The web app's origin (config.ts: baked in at build time). */
  webOrigin: string;
  /** Opens the web app's editor in a new tab, next to the page the image came from. */
  openTab: (url: string, from?: Tab) => Promise<unknown>;
  fetch?: typeof fetch;
};

/**
 * "Edit with Parley" on an image's context menu: the background fetches the image's bytes (data: URLs too, the page's
 * cookies sent, as the page showed it), keeps PNG and JPEG only (by their bytes), uploads them through the API as a
 * new image of the person's, and opens the web app's editor with it in a new tab. Whatever goes wrong, the editor
 * opens and says why in the person's language.
 */
export function createImageEditorEntry(deps: ImageEditorEntryDeps) {
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const editorAt = (where: Parameters<typeof editorUrl>[1]) => editorUrl(deps.webOrigin, where);

  async function bytesOf(srcUrl: string): Promise<{ blob: Blob; mediaType: 'image/png' | 'image/jpeg' } | EditProblem> {
    let blob: Blob;
    try {
      const response = await doFetch(srcUrl, { credentials: 'include' });
      if (!response.ok) return 'fetchFailed';
      blob = await response.blob();
    } catch {
      return 'fetchFailed';
    }
    const kind = imageKind(new Uint8Array(await blob.slice(0, 64).arrayBuffer()));
    if (kind === null) return 'notImage';
    if (kind === 'image') return 'formatUnsupported';
    if (blob.size > MAX_BYTES) return 'tooLarge';
    return { blob: blob.type === kind ? blob : new Blob([blob], { type: kind }), mediaType: kind };
  }

  /** Where the editor opens for this image: with it, or with the reason it is not there. */
  async function prepare(srcUrl: string): Promise<string> {
    await deps.ready;
    if (!deps.hasToken()) return editorAt({ problem: 'signedOut' });
    if (!/^(https?|data):/i.test(srcUrl)) return editorAt({ problem: 'fetchFailed' });
    const fetched = await bytesOf(srcUrl);
    if (typeof fetched === 'string') return editorAt({ problem: fetched });
    try {
      const { image } = await uploadImage(deps.client, fetched.blob, uploadName(srcUrl, fetched.mediaType));
      return editorAt({ imageId: image.id });
    } catch (error) {
      return editorAt({ problem: problemOf(error) });
    }
  }

  async function editImage(srcUrl: string, from?: Tab): Promise<{ url: string }> {
    const url = await prepare(srcUrl);
    await deps.openTab(url, from);
    return { url };
  }

  const onMenuClick = (info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab) => {
    if (info.menuItemId !== EDIT_MENU_ID || !info.srcUrl) return;
    void editImage(info.srcUrl, tab).catch(() => undefined);
  };

  /** EDIT_IMAGE: what the menu does, for our own pages (and the browser tests, which cannot click a context menu). */
  const EDIT_IMAGE: Handler<'EDIT_IMAGE'> = (data: ProtocolMap['EDIT_IMAGE']['data']) => {
    if (!data || typeof data.srcUrl !== 'string' || data.srcUrl.length > MAX_SRC_LENGTH) {
      throw new MessageError('BAD_REQUEST', 'srcUrl is required');
    }
    if (!/^(https?|data):/i.test(data.srcUrl)) throw new MessageError('BAD_REQUEST', 'srcUrl must be http(s) or data:');
    return editImage(data.srcUrl);
  };

  return { onMenuClick, handlers: { EDIT_IMAGE }, editImage };
}

/** The menu item on images, titled in the person's language (created again when the worker starts). */
export function createEditMenu(menus: Pick<typeof browser.contextMenus, 'create' | 'remove'>) {
  let chain: Promise<unknown> = Promise.resolve();
  let shown: string | null = null;
  return (language: string) => {
    const title = editMenuTitle(language);
    if (title === shown) return chain;
    shown = title;
    chain = chain
      .then(() => menus.remove(EDIT_MENU_ID).catch(() => undefined))
      .then(() => {
        menus.create({ id: EDIT_MENU_ID, title, contexts: ['image'] });
      })
      .catch(() => undefined);
    return chain;
  };
}
