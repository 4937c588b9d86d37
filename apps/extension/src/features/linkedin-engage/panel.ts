import type { Draft } from '@parley/contract';
import { copyButton } from '../../ui/on-site/copy';
import { el, showText, styleSheet } from '../../ui/on-site/shadow';
import type { Translate } from '../../ui/on-site/strings';
import { listenTrusted } from '../../ui/on-site/trusted';
import type { EngageKey, EngageTranslate } from './strings';

/** The review list's own layout (the buttons, texts and colours are the shared on-site ones). */
export const LIST_CSS = `
.parley.engage { position: fixed; right: 16px; bottom: 16px; z-index: 2147483646; display: block; width: 360px; max-width: calc(100vw - 32px); }
.parley.engage .panel { position: static; width: auto; max-width: none; max-height: min(70vh, 640px); overflow: auto; }
.parley.engage[hidden], .parley.engage .panel[hidden], .parley.engage [hidden] { display: none; }
.parley.engage .head { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
.parley.engage .head .title { margin: 0; }
.parley.engage .note { font-size: 12px; color: #57606a; margin: 2px 0 8px; }
.parley.engage .status { font-size: 12px; margin: 0 0 8px; }
.parley.engage .status.error { color: #b42318; }
.parley.engage a { color: #3b5bdb; font-size: 12px; margin-right: 10px; }
.parley.engage .draft { border-top: 1px solid #e5e8ec; padding: 8px 0 4px; }
.parley.engage .who { font-weight: 600; font-size: 12px; margin: 0 0 2px; }
.parley.engage .excerpt { font-size: 12px; color: #57606a; margin: 0 0 6px; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden; }
.parley.engage .flag { font-size: 12px; color: #9a6700; margin: 0 0 6px; }
.parley.engage .text { max-height: 160px; }
.parley.engage textarea { box-sizing: border-box; width: 100%; min-height: 90px; font: inherit; border: 1px solid #c9ced6; border-radius: 6px; padding: 6px; margin: 0 0 6px; resize: vertical; }
.parley.engage .done { font-size: 12px; color: #1a7f37; margin: 0 0 6px; }
.parley.engage .open { box-shadow: 0 4px 16px rgba(0,0,0,.18); }
`;

const FLAG_KEYS: Record<Draft['flags'][number], EngageKey> = {
  instructionsInPost: 'flagInstructions',
  linkRemoved: 'flagLink',
  contactRemoved: 'flagContact',
  avoidWord: 'flagAvoid',
};

/** What the person does with a draft; each answers the note to show under it (null: none). */
export interface DraftActions {
  accept(draft: Draft, text: string): Promise<{ note: EngageKey; done: boolean }>;
  dismiss(draft: Draft): Promise<void>;
  save(draft: Draft, text: string): Promise<Draft>;
}

export type Status =
  | { kind: 'idle' }
  | { kind: 'busy'; key: EngageKey }
  | { kind: 'info'; key: EngageKey; values?: Record<string, string | number> }
  /** The server's localized message (a daily limit, an upgrade needed…); `upgrade` adds the link. */
  | { kind: 'error'; message: string; upgrade: boolean };

export interface ReviewList {
  /** The drafts to review (pending ones for posts on this page), newest first. */
  setDrafts(drafts: Draft[]): void;
  setStatus(status: Status): void;
  /** Free drafts left today (null: no daily limit, nothing shown). */
  setRemaining(remaining: number | null): void;
  open(): void;
  /** Shown on the pages with posts only (LinkedIn moves to messaging, jobs… without a new document). */
  setShown(shown: boolean): void;
}

/**
 * The review list on LinkedIn's page (in a closed shadow root, see ui/on-site/shadow.ts): each draft with the post's
 * author and beginning, the drafted comment (Edit turns it into a text field), Accept, Dismiss and Copy. Accept puts
 * the text in the post's own comment box and nothing more: the person posts it with LinkedIn's Comment button.
 */
export function buildReviewList(
  container: HTMLElement,
  deps: { t: EngageTranslate; tSite: Translate; actions: DraftActions; webOrigin: string },
): ReviewList {
  const { t, tSite, actions } = deps;
  container.append(styleSheet(LIST_CSS));
  const root = el('div', 'parley engage');
  root.dataset.parley = 'engage-list';
  const show = el('button', 'primary open', t('show'));
  show.type = 'button';
  show.dataset.parley = 'engage-show';
  const panel = el('div', 'panel');
  panel.dataset.parley = 'engage-panel';
  const head = el('div', 'head');
  const title = el('p', 'title', t('title'));
  const hide = el('button', '', t('hide'));
  hide.type = 'button';
  head.append(title, hide);
  const note = el('p', 'note', t('subtitle'));
  const status = el('p', 'status');
  status.hidden = true;
  status.setAttribute('role', 'status');
  const links = el('p', 'status');
  const upgrade = el('a', '', t('upgrade'));
  upgrade.href = new URL('/subscription', deps.webOrigin).toString();
  upgrade.target = '_blank';
  upgrade.rel = 'noopener';
  upgrade.dataset.parley = 'upgrade';
  upgrade.hidden = true;
  const dashboard = el('a', '', t('dashboard'));
  dashboard.href = new URL('/automation/dashboard-linkedin', deps.webOrigin).toString();
  dashboard.target = '_blank';
  dashboard.rel = 'noopener';
  links.append(dashboard);
  // Right under the refusal it answers (hidden with the link itself).
  const upgradeRow = el('p', 'status');
  upgradeRow.hidden = true;
  upgradeRow.append(upgrade);
  const remaining = el('p', 'note');
  remaining.hidden = true;
  remaining.dataset.parley = 'remaining';
  const list = el('div', '');
  const empty = el('p', 'note', t('empty'));
  panel.append(head, note, status, remaining, upgradeRow, list, empty, links);
  show.hidden = true;
  root.append(show, panel);
  container.append(root);

  const open = () => {
    panel.hidden = false;
    show.hidden = true;
  };
  listenTrusted(hide, 'click', () => {
    panel.hidden = true;
    show.hidden = false;
  });
  listenTrusted(show, 'click', open);

  /** The plan stopped a request (limited), or today's free drafts are used up (spent): the upgrade link shows. */
  let limited = false;
  let spent = false;
  const items = new Map<string, HTMLElement>();
  const item = (draft: Draft): HTMLElement => {
    let text = draft.text;
    const box = el('div', 'draft');
    box.dataset.parley = 'draft';
    box.dataset.urn = draft.postUrn;
    const who = el('p', 'who', t('postBy', { name: draft.authorName || '—' }));
    const excerpt = el('p', 'excerpt', draft.postExcerpt);
    const flags = draft.flags.map((flag) => el('p', 'flag', t(FLAG_KEYS[flag] ?? 'flagInstructions')));
    const body = el('p', 'text', text);
    body.dataset.parley = 'draft-text';
    const field = el('textarea');
    field.hidden = true;
    field.setAttribute('aria-label', t('editLabel'));
    field.maxLength = 1_250;
    const done = el('p', 'done');
    done.hidden = true;
    done.dataset.parley = 'draft-note';
    const row = el('div', 'actions');
    const dismiss = el('button', '', t('dismiss'));
    const edit = el('button', '', t('edit'));
    const copy = copyButton(tSite, () => (field.hidden ? text : field.value));
    const accept = el('button', 'primary', t('accept'));
    for (const b of [dismiss, edit, accept]) b.type = 'button';
    row.append(dismiss, edit, copy, accept);
    box.append(who, excerpt, ...flags, body, field, done, row);

    const say = (key: EngageKey, ok: boolean) => {
      showText(done, t(key));
      done.className = ok ? 'done' : 'flag';
      done.hidden = false;
    };
    const busy = (on: boolean) => {
      for (const b of [dismiss, edit, accept]) b.disabled = on;
    };
    listenTrusted(edit, 'click', () => {
      if (field.hidden) {
        field.value = text;
        field.hidden = false;
        body.hidden = true;
        showText(edit, t('save'));
        field.focus();
        return;
      }
      const next = field.value.trim();
      if (!next) return;
      busy(true);
      actions.save(draft, next).then(
        (saved) => {
          text = saved.text;
          showText(body, text);
          field.hidden = true;
          body.hidden = false;
          showText(edit, t('edit'));
          busy(false);
        },
        () => {
          say('failed', false);
          busy(false);
        },
      );
    });
    listenTrusted(accept, 'click', () => {
      const chosen = field.hidden ? text : field.value.trim();
      if (!chosen) return;
      busy(true);
      actions.accept(draft, chosen).then(
        ({ note: key, done: accepted }) => {
          say(key, accepted);
          busy(false);
          if (accepted) {
            text = chosen;
            showText(body, text);
            field.hidden = true;
            body.hidden = false;
            showText(edit, t('edit'));
          }
        },
        () => {
          say('failed', false);
          busy(false);
        },
      );
    });
    listenTrusted(dismiss, 'click', () => {
      busy(true);
      actions.dismiss(draft).then(
        () => {
          box.remove();
          items.delete(draft.id);
          empty.hidden = items.size > 0;
        },
        () => {
          say('failed', false);
          busy(false);
        },
      );
    });
    return box;
  };

  return {
    setDrafts(drafts) {
      const keep = new Set(drafts.map((d) => d.id));
      for (const [id, node] of items) {
        if (!keep.has(id)) {
          node.remove();
          items.delete(id);
        }
      }
      // New ones go on top, in the order given; those shown keep their state (an edit in progress, a note).
      let previous: HTMLElement | null = null;
      for (const draft of drafts) {
        let node = items.get(draft.id);
        if (!node) {
          node = item(draft);
          items.set(draft.id, node);
          if (previous) previous.after(node);
          else list.prepend(node);
        }
        previous = node;
      }
      empty.hidden = items.size > 0;
    },
    setStatus(next) {
      status.hidden = next.kind === 'idle';
      status.classList.toggle('error', next.kind === 'error');
      limited = next.kind === 'error' && next.upgrade;
      upgradeRow.hidden = upgrade.hidden = !limited && !spent;
      if (next.kind === 'busy') showText(status, t(next.key));
      else if (next.kind === 'info') showText(status, t(next.key, next.values));
      else if (next.kind === 'error') showText(status, next.message);
      // A refusal is read at the top of the list, whatever the person had scrolled to.
      if (next.kind === 'error') {
        open();
        panel.scrollTop = 0;
      }
    },
    setRemaining(count) {
      // No free drafts left today: the way to more is the upgrade.
      spent = count === 0;
      upgradeRow.hidden = upgrade.hidden = !limited && !spent;
      remaining.hidden = count === null;
      if (count !== null) showText(remaining, t('remaining', { n: count }));
    },
    open,
    setShown(shown) {
      root.hidden = !shown;
    },
  };
}
