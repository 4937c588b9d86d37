import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS } from '@parley/contract/values';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { apiCall, onMessages, sendMessage } from '../../platform/messaging/messaging';
import type { PickedTemplate } from '../../platform/messaging/protocol';
import { pickedTemplateOf } from '../../platform/messaging/template-choice';
import { readSession } from '../../platform/storage/session-store';
import { readStoredSettings } from '../../platform/storage/settings-store';
import type { TemplateItem } from '../../platform/storage/templates-store';
import type { ReplySite, ReplyTarget, SiteContext } from '../../sites/shared/types';
import { copyButton } from '../../ui/on-site/copy';
import { watchPage } from '../../ui/on-site/observe';
import { el, errorMessage, mountShadowUi, showText } from '../../ui/on-site/shadow';
import type { Translate } from '../../ui/on-site/strings';
import { listenTrusted } from '../../ui/on-site/trusted';
import { fillFromPage } from './fill';

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

/** The API's bound on an instruction (the reply bodies' `instruction`). */
const INSTRUCTION_MAX = 2000;

/**
 * One reply drafted through the background (which holds the token), shaped by the stored writing settings. A custom
 * reply (a template of kind customReply) is the instruction, with replyOption CUSTOM.
 */
export async function draftReply(endpoint: ReplyEndpoint, text: string, custom?: string): Promise<string> {
  const s: Settings = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
  const options = {
    tone: s.tone,
    length: s.length,
    language: s.language,
    ...(custom
      ? { replyOption: 'CUSTOM' as const, instruction: custom.trim().slice(0, INSTRUCTION_MAX) }
      : { replyOption: s.replyOption }),
  };
  const result =
    endpoint === 'comment'
      ? await apiCall('comment', { body: { ...options, post: text } })
      : await apiCall(endpoint, { body: { ...options, thread: text } });
  return result.data.text;
}

/** A template chosen for a box: inserted, or (a custom reply) drafted; whether the box took it. */
type TakeTemplate = (template: PickedTemplate) => Promise<boolean>;

/** A request id for the template picker (the background hands the choice back with it). */
function newRequest(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Watches the page for the site's reply and comment boxes and puts a "Reply with Parley" button next to each, and a
 * Templates button: the person's templates for this kind of site (mail templates on Gmail and Outlook, message
 * templates elsewhere) are inserted filled in on a click, and their custom replies draft an AI reply with that
 * instruction. "More templates…" opens the web app's picker in a small window (through the background); what the
 * person chooses there comes back to the box they opened it from, once, and goes in the same way. A suggestion is
 * inserted into the editor only when the person clicks Insert; Parley never sends or posts anything.
 */
export function startInstantReply(ctx: ContentScriptContext, options: InstantReplyOptions): () => void {
  const mounted = new Map<HTMLElement, { remove(): void; host: () => Element | undefined }>();

  // The box waiting for the picker's choice (the last one it was opened from), and the request it was opened with.
  let picking: { request: string; take: TakeTemplate } | null = null;
  const openPicker = async (take: TakeTemplate): Promise<boolean> => {
    const request = newRequest();
    picking = { request, take };
    try {
      return (await sendMessage('OPEN_TEMPLATE_PICKER', { request })).opened;
    } catch {
      return false;
    }
  };
  const stopListening = onMessages({
    TEMPLATE_PICKED: async (data) => {
      const template = pickedTemplateOf(data?.template);
      if (!picking || !template || data.request !== picking.request) return { used: false };
      const { take } = picking;
      picking = null;
      return { used: await take(template) };
    },
  });

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
        buildReplyUi(container, target, { ...options, openPicker }),
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
    stopListening();
    picking = null;
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

/** The templates offered on a site: its kind (mail or message) first, then the custom replies. */
export function templatesFor(templates: TemplateItem[], kind: 'mail' | 'message') {
  return {
    inserts: templates.filter((template) => template.kind === kind),
    customs: templates.filter((template) => template.kind === 'customReply'),
  };
}

function buildReplyUi(
  container: HTMLElement,
  target: ReplyTarget,
  { site, endpoint, t, openPicker }: InstantReplyOptions & { openPicker: (take: TakeTemplate) => Promise<boolean> },
) {
  const root = el('div', 'parley');
  const open = el('button', 'primary', t('replyButton'));
  open.type = 'button';
  open.dataset.parley = 'reply';
  const openTemplates = el('button', '', t('templates'));
  openTemplates.type = 'button';
  openTemplates.dataset.parley = 'templates';
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

  const list = el('div', 'panel');
  list.hidden = true;
  list.dataset.parley = 'templates-panel';
  const listBody = el('div', 'list');
  const listClose = el('button', '', t('close'));
  listClose.type = 'button';
  const more = el('button', '', t('moreTemplates'));
  more.type = 'button';
  more.dataset.parley = 'more-templates';
  const listActions = el('div', 'actions');
  listActions.append(more, listClose);
  list.append(el('p', 'title', t('templatesTitle')), listBody, listActions);

  root.append(open, openTemplates, panel, list);
  container.append(root);

  let generation = 0;
  /** The instruction of the custom reply being drafted (Regenerate drafts it again), or null for a plain reply. */
  let custom: string | null = null;
  // The focus stays with the person: it moves to Insert only when they asked from our own buttons and are still
  // waiting (focus on ours, or nowhere because the button they pressed is disabled while writing), never from the
  // site's editor or anywhere else they went meanwhile.
  const shadow = () => root.getRootNode() as Document | ShadowRoot;
  const ours = () => {
    const active = shadow().activeElement;
    return active !== null && root.contains(active);
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
    list.hidden = true;
    panel.hidden = false;
    suggestion = '';
    show(t('writing'), 'busy');
    try {
      const text = contextText(site.readContext(target));
      if (!text) throw new Error('empty');
      const reply = await draftReply(endpoint(target), text, custom ?? undefined);
      if (id !== generation) return;
      suggestion = reply;
      show(reply, 'ready');
    } catch (error) {
      if (id !== generation) return;
      show((error as Error)?.message === 'empty' ? t('nothingToReply') : errorMessage(error, t('failed')), 'error');
    }
  };

  /** What the person had selected on the page when they reached for the templates (for {{selection}}). */
  let selection = '';
  const readSelection = () => document.getSelection()?.toString() ?? '';

  const insertTemplate = async (template: Pick<TemplateItem, 'body' | 'language'>): Promise<boolean> => {
    generation++;
    list.hidden = true;
    let author: string | undefined;
    try {
      author = site.readContext(target).author;
    } catch {
      author = undefined;
    }
    const profile = (await readSession()).profile;
    const text = fillFromPage(template.body, {
      author,
      myName: profile?.name || profile?.fullName,
      selection: selection || readSelection(),
      language: template.language,
    });
    if (site.insertText(target.editor, text)) {
      panel.hidden = true;
      return true;
    }
    // The box refused it: the person gets it with Copy.
    panel.hidden = false;
    suggestion = text;
    show(text, 'ready');
    note.hidden = false;
    return false;
  };

  /** A template chosen in the picker window: for this very box, as if chosen from the list. */
  const editorStillHere = () => target.editor.isConnected && root.isConnected;
  const takePicked: TakeTemplate = async (template) => {
    if (!editorStillHere()) return false;
    if (template.kind === 'customReply') {
      custom = template.body;
      void generate();
      return true;
    }
    return insertTemplate(template);
  };

  const showTemplates = async () => {
    const id = ++generation;
    panel.hidden = true;
    list.hidden = false;
    listBody.replaceChildren(el('p', 'text', t('loading')));
    reveal(list);
    let templates: TemplateItem[] = [];
    try {
      templates = (await sendMessage('GET_TEMPLATES')).templates;
    } catch {
      templates = [];
    }
    if (id !== generation) return;
    const { inserts, customs } = templatesFor(templates, endpoint(target) === 'mailMessage' ? 'mail' : 'message');
    const item = (template: TemplateItem, run: () => void) => {
      const button = el('button', 'item', template.title);
      button.type = 'button';
      button.dataset.parley = 'template';
      listenTrusted(button, 'click', run);
      return button;
    };
    const items: HTMLElement[] = inserts.map((template) => item(template, () => void insertTemplate(template)));
    if (customs.length) {
      items.push(el('p', 'section', t('customReplies')));
      for (const template of customs) {
        items.push(
          item(template, () => {
            custom = template.body;
            void generate();
          }),
        );
      }
    }
    listBody.replaceChildren(...(items.length ? items : [el('p', 'text', t('noTemplates'))]));
    reveal(list);
  };

  // A person's clicks only (ui/on-site/trusted.ts): a page cannot draft (spend credits) or insert by itself.
  listenTrusted(open, 'click', () => {
    custom = null;
    void generate();
  });
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
  // Before the click moves anything: the page's selection as the person left it.
  listenTrusted(openTemplates, 'pointerdown', () => {
    selection = readSelection();
  });
  listenTrusted(openTemplates, 'click', () => {
    if (!list.hidden) {
      generation++;
      list.hidden = true;
      return;
    }
    void showTemplates();
  });
  listenTrusted(listClose, 'click', () => {
    generation++;
    list.hidden = true;
  });
  listenTrusted(more, 'click', () => {
    generation++;
    list.hidden = true;
    void openPicker(takePicked).then((opened) => {
      if (opened) return;
      suggestion = '';
      panel.hidden = false;
      show(t('pickerFailed'), 'error');
    });
  });
}
