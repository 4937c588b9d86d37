import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { apiCall } from '../../platform/messaging/messaging';
import { readStoredSettings } from '../../platform/storage/settings-store';
import type { ReplySite, ReplyTarget, SiteContext } from '../../sites/shared/types';
import { copyButton } from '../../ui/on-site/copy';
import { watchPage } from '../../ui/on-site/observe';
import { el, errorMessage, mountShadowUi, showText } from '../../ui/on-site/shadow';
import type { Translate } from '../../ui/on-site/strings';
import { listenTrusted } from '../../ui/on-site/trusted';

/** The API endpoint that drafts a reply for a target: mail threads, direct messages, or comments on a post. */
export type ReplyEndpoint = 'mailMessage' | 'message' | 'comment';

export interface InstantReplyOptions {
  site: ReplySite;
  endpoint: (target: ReplyTarget) => ReplyEndpoint;
  t: Translate;
}

/** What is sent: the context the site module read, as plain text (page content is data for the model only). */
export function contextText(context: SiteContext): string {
  const head = [
    context.title && !context.text.includes(context.title) ? `Title: ${context.title}` : '',
    context.author && !context.text.includes(context.author) ? `Author: ${context.author}` : '',
  ].filter(Boolean);
  return [...head, context.text].join('\n').trim();
}

/** One reply drafted through the background (which holds the token), shaped by the stored writing settings. */
export async function draftReply(endpoint: ReplyEndpoint, text: string): Promise<string> {
  const s: Settings = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
  const options = { tone: s.tone, length: s.length, language: s.language, replyOption: s.replyOption };
  const result =
    endpoint === 'comment'
      ? await apiCall('comment', { body: { ...options, post: text } })
      : await apiCall(endpoint, { body: { ...options, thread: text } });
  return result.data.text;
}

/**
 * Watches the page for the site's reply and comment boxes and puts a "Reply with Parley" button next to each. The
 * suggestion is inserted into the editor only when the person clicks Insert; Parley never sends or posts anything.
 */
export function startInstantReply(ctx: ContentScriptContext, options: InstantReplyOptions): () => void {
  const mounted = new Map<HTMLElement, { remove(): void; host: () => Element | undefined }>();

  const scan = () => {
    for (const [editor, ui] of mounted) {
      const host = ui.host();
      if (!editor.isConnected || (host && !host.isConnected)) {
        ui.remove();
        mounted.delete(editor);
      }
    }
    if (!options.site.match(new URL(location.href))) return;
    for (const target of options.site.findReplyTargets(document)) {
      if (mounted.has(target.editor)) continue;
      let host: Element | undefined;
      let removed = false;
      const entry = {
        remove: () => {
          removed = true;
        },
        host: () => host,
      };
      mounted.set(target.editor, entry);
      void mountShadowUi(ctx, target.anchor, target.placement, (container) =>
        buildReplyUi(container, target, options),
      ).then(
        (ui) => {
          host = ui.shadowHost;
          entry.remove = () => ui.remove();
          if (removed) ui.remove();
        },
        () => mounted.delete(target.editor),
      );
    }
  };
  const unwatch = watchPage(ctx, scan);
  return () => {
    unwatch();
    for (const ui of mounted.values()) ui.remove();
    mounted.clear();
  };
}

/**
 * Brings the suggestion into view: it opens under the reply box, which in a long thread sits at the bottom of the
 * screen (Gmail scrolls an inner pane, not the window; scrollIntoView moves whichever does). Nothing moves while the
 * whole panel is in view; else it goes to the middle of the screen, clear of the compose windows docked at the bottom,
 * or to the top when it is too tall for that.
 */
export function reveal(panel: HTMLElement): void {
  const box = panel.getBoundingClientRect();
  const margin = 8;
  if (box.height === 0 || (box.top >= margin && box.bottom <= innerHeight - margin)) return;
  // At once, not smoothly: the buttons are where they are drawn as soon as the person reaches for them.
  panel.scrollIntoView({ block: box.height > innerHeight * 0.6 ? 'start' : 'center', inline: 'nearest' });
}

function buildReplyUi(container: HTMLElement, target: ReplyTarget, { site, endpoint, t }: InstantReplyOptions) {
  const root = el('div', 'parley');
  const open = el('button', 'primary', t('replyButton'));
  open.type = 'button';
  open.dataset.parley = 'reply';
  const panel = el('div', 'panel');
  panel.hidden = true;
  panel.dataset.parley = 'reply-panel';
  const title = el('p', 'title', t('suggestion'));
  const body = el('p', 'text');
  body.dataset.parley = 'suggestion';
  const note = el('p', 'text error', t('insertFailed'));
  note.hidden = true;
  const actions = el('div', 'actions');
  const insert = el('button', 'primary', t('insert'));
  const regenerate = el('button', '', t('regenerate'));
  const close = el('button', '', t('close'));
  for (const b of [insert, regenerate, close]) b.type = 'button';
  let suggestion = '';
  // For a box that does not take the text (insertFailed says so) or a reply written elsewhere.
  const copy = copyButton(t, () => suggestion);
  actions.append(close, regenerate, copy, insert);
  panel.append(title, body, note, actions);
  root.append(open, panel);
  container.append(root);

  let generation = 0;
  // The focus stays with the person: it moves to Insert only when they asked from our own buttons and are still
  // waiting (focus on ours, or nowhere because the button they pressed is disabled while writing), never from the
  // site's editor or anywhere else they went meanwhile.
  const shadow = () => root.getRootNode() as Document | ShadowRoot;
  const ours = () => {
    const active = shadow().activeElement;
    return active === open || (active !== null && panel.contains(active));
  };
  const waiting = () => {
    const top = document.activeElement;
    const inside = shadow();
    const onHost = 'host' in inside && top === inside.host && !inside.activeElement;
    return ours() || onHost || top === null || top === document.body;
  };
  let follow = false;
  const show = (text: string, state: 'busy' | 'ready' | 'error') => {
    note.hidden = true;
    showText(body, text);
    body.classList.toggle('error', state === 'error');
    insert.disabled = state !== 'ready';
    copy.disabled = state !== 'ready';
    regenerate.disabled = state === 'busy';
    if (state === 'ready' && follow && waiting()) insert.focus({ preventScroll: true });
    reveal(panel);
  };

  const generate = async () => {
    const id = ++generation;
    follow = ours();
    panel.hidden = false;
    suggestion = '';
    show(t('writing'), 'busy');
    try {
      const text = contextText(site.readContext(target));
      if (!text) throw new Error('empty');
      const reply = await draftReply(endpoint(target), text);
      if (id !== generation) return;
      suggestion = reply;
      show(reply, 'ready');
    } catch (error) {
      if (id !== generation) return;
      show((error as Error)?.message === 'empty' ? t('nothingToReply') : errorMessage(error, t('failed')), 'error');
    }
  };

  // A person's clicks only (ui/on-site/trusted.ts): a page cannot draft (spend credits) or insert by itself.
  listenTrusted(open, 'click', () => void generate());
  listenTrusted(regenerate, 'click', () => void generate());
  listenTrusted(close, 'click', () => {
    generation++;
    panel.hidden = true;
  });
  listenTrusted(insert, 'click', () => {
    if (!suggestion) return;
    if (site.insertText(target.editor, suggestion)) panel.hidden = true;
    else note.hidden = false;
  });
}
