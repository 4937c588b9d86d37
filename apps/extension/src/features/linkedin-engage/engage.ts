import type { Draft, LinkedinMetric, LinkedinSettings } from '@parley/contract';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { apiCall, sendMessage } from '../../platform/messaging/messaging';
import type { LinkedinReading, LinkedinWatch } from '../../platform/messaging/protocol';
import { insertText } from '../../sites/linkedin/linkedin.page';
import {
  commentEditorOf,
  findPost,
  postElements,
  postsPageOf,
  postUrn,
  readPost,
  type PagePost,
} from '../../sites/linkedin/posts';
import { readStats, statsPageOf } from '../../sites/linkedin/stats';
import { watchPage } from '../../ui/on-site/observe';
import { el, mountShadowUi, showText, type ShadowUi } from '../../ui/on-site/shadow';
import type { Translate } from '../../ui/on-site/strings';
import { listenTrusted } from '../../ui/on-site/trusted';
import { candidateGroups, toCandidate, type CandidateGroup } from './candidates';
import { buildReviewList, type DraftActions, type ReviewList } from './panel';
import type { EngageTranslate } from './strings';

type DraftResult = { drafts: Draft[]; remainingToday: number | null };

/** What the engagement asks of the background (the token stays there). Replaced in tests. */
export interface EngageApi {
  watch(fresh?: boolean): Promise<LinkedinWatch>;
  draft(group: Pick<CandidateGroup, 'posts' | 'keyword' | 'profileUrl'> & { manual?: boolean }): Promise<DraftResult>;
  pending(): Promise<Draft[]>;
  update(id: string, change: { text?: string; status?: Draft['status'] }): Promise<Draft>;
  ready(count: number): Promise<void>;
  stats(readings: LinkedinReading[]): Promise<void>;
}

export const messageApi: EngageApi = {
  watch: (fresh) => sendMessage('LINKEDIN_WATCH', { fresh }),
  draft: async ({ posts, keyword, profileUrl, manual }) =>
    (
      await apiCall('linkedinDraft', {
        body: {
          posts,
          manual: manual ?? false,
          ...(keyword ? { keyword } : {}),
          ...(profileUrl ? { profileUrl } : {}),
        },
      })
    ).data,
  pending: async () => (await apiCall('linkedinDrafts', { query: { status: 'pending' } })).data.drafts,
  update: async (id, change) => (await apiCall('updateLinkedinDraft', { params: { id }, body: change })).data,
  ready: async (count) => {
    await sendMessage('LINKEDIN_DRAFTS_READY', { count });
  },
  stats: async (readings) => {
    await sendMessage('LINKEDIN_STATS', { readings });
  },
};

/** The contract's defaults (DEFAULT_LINKEDIN_SETTINGS), for when the lists cannot be had. */
const FALLBACK_SETTINGS: LinkedinSettings = {
  languages: [],
  commentsPerKeywordPerDay: 3,
  commentType: 'insightful',
  customPrompts: [],
  avoidWords: [],
  includeWords: [],
  allowEmojis: false,
  allowHashtags: false,
  commentLength: 'small',
  creativity: 'balanced',
  autoEngage: false,
  displayAiComments: true,
};

/** The codes that mean the person's plan stops here: the message comes with the upgrade link. */
const PLAN_LIMITS = new Set(['DAILY_LIMIT_REACHED', 'UPGRADE_REQUIRED']);
/** A stats page is read at most this many times, this far apart, while it changes. */
const STATS_READS_MAX = 5;
const STATS_READ_EVERY_MS = 1_500;
/** How long the page is left to settle after a change before its new posts are sent. */
const SEND_AFTER_MS = 1_200;

export interface EngageOptions {
  t: EngageTranslate;
  tSite: Translate;
  api?: EngageApi;
  webOrigin: string;
  now?: () => Date;
  /** How long the page is left to settle before its new posts are sent (SEND_AFTER_MS). */
  sendAfterMs?: number;
}

/** The person's local day (YYYY-MM-DD), the day a stat is for. */
export const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The server's words for a failure, and whether it is the plan's limit. */
function failure(error: unknown, fallback: string): { message: string; upgrade: boolean } {
  const e = error as { name?: string; code?: string; message?: string } | null;
  const upgrade = PLAN_LIMITS.has(e?.code ?? '');
  const ours = e?.name === 'ExtensionMessageError' && e.code !== 'NO_RECEIVER' && e.message;
  return { message: ours ? e.message! : fallback, upgrade };
}

/**
 * LinkedIn engagement on the page (the feed, a content search, a followed profile's activity; the person's own
 * profile, dashboard, analytics and SSI pages for their numbers). Posts of the last 24 hours that match a watched
 * keyword or profile are sent to be drafted (the server matches again and keeps the caps); each post gets a "Draft a
 * comment" button; drafts wait in the review list, where Accept puts one into the post's own comment box. Nothing is
 * ever posted or submitted, and no button of LinkedIn's is clicked: the person presses Comment. With the
 * displayAiComments setting off there is no list and no button (the drafts are on the web dashboard); with auto-engage
 * on, the toolbar badge says when drafts were prepared.
 */
export function startEngage(ctx: ContentScriptContext, options: EngageOptions): () => void {
  const api = options.api ?? messageApi;
  const now = options.now ?? (() => new Date());
  const { t } = options;
  let stopped = false;
  let watch: LinkedinWatch | null = null;
  /** Posts sent to be drafted during this page's life (each once). */
  const sent = new Set<string>();
  /** Pending drafts by id (those for posts on the page are listed). */
  const drafts = new Map<string, Draft>();
  /** Metrics read and sent during this page's life (the background keeps them to once a day as well). */
  const statsSent = new Set<LinkedinMetric>();
  /** The posts' "Draft a comment" buttons (null while mounting). */
  const buttons = new Map<Element, ShadowUi | null>();
  let list: ReviewList | null = null;
  let listUi: Promise<ShadowUi> | null = null;
  let sending = false;
  let blocked = false;
  let sendTimer: ReturnType<typeof setTimeout> | undefined;

  const showList = () => watch?.settings.displayAiComments !== false;

  /**
   * The posts on the page, each read once (LinkedIn re-renders often; reading a post's text takes a style lookup per
   * element): a post element already read is taken from here, with its time as first read.
   */
  const read = new WeakMap<Element, PagePost>();
  const pagePosts = (): PagePost[] =>
    postElements(document).map((element) => {
      let post = read.get(element);
      if (!post || post.urn !== postUrn(element)) {
        post = readPost(element, now());
        read.set(element, post);
      }
      return post;
    });

  const actions: DraftActions = {
    accept: async (draft, text) => {
      const post = findPost(document, draft.postUrn);
      if (!post) return { note: 'postGone', done: false };
      post.scrollIntoView({ block: 'center' });
      const editor = commentEditorOf(post);
      // LinkedIn's Comment button is the person's to press: without an open box, they are asked to open it.
      if (!editor) return { note: 'openBox', done: false };
      if (!insertText(editor, text)) return { note: 'insertFailed', done: false };
      editor.focus({ preventScroll: true });
      const saved = await api.update(draft.id, { status: 'accepted', ...(text !== draft.text ? { text } : {}) });
      drafts.set(saved.id, saved);
      return { note: 'accepted', done: true };
    },
    dismiss: async (draft) => {
      await api.update(draft.id, { status: 'dismissed' });
      drafts.delete(draft.id);
    },
    save: async (draft, text) => {
      const saved = await api.update(draft.id, { text });
      drafts.set(saved.id, saved);
      return saved;
    },
  };

  const ensureList = async (): Promise<ReviewList | null> => {
    if (!showList() || stopped) return null;
    if (!listUi) {
      listUi = mountShadowUi(ctx, document.body, 'append', (container) => {
        list = buildReviewList(container, { t, tSite: options.tSite, actions, webOrigin: options.webOrigin });
      });
    }
    await listUi;
    return list;
  };

  const render = () => {
    if (!list) return;
    const onPage = [...drafts.values()]
      .filter((d) => (d.status === 'pending' || d.status === 'accepted') && findPost(document, d.postUrn))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    list.setDrafts(onPage);
  };

  const draftGroup = async (group: CandidateGroup | (Pick<CandidateGroup, 'posts'> & { manual: true })) => {
    const ui = await ensureList();
    ui?.setStatus({ kind: 'busy', key: 'manual' in group ? 'drafting' : group.loader });
    try {
      const result = await api.draft(group);
      for (const draft of result.drafts) drafts.set(draft.id, draft);
      ui?.setRemaining(result.remainingToday);
      ui?.setStatus(
        result.drafts.length === 0 && !('manual' in group) ? { kind: 'info', key: 'noneMatched' } : { kind: 'idle' },
      );
      if (result.drafts.length > 0) ui?.open();
      render();
      if (!('manual' in group) && group.due && result.drafts.length > 0 && watch?.settings.autoEngage) {
        await api.ready(result.drafts.length).catch(() => undefined);
      }
      return result;
    } catch (error) {
      const { message, upgrade } = failure(error, t('failed'));
      if (upgrade) blocked = true;
      (ui ?? (await ensureList()))?.setStatus({ kind: 'error', message, upgrade });
      throw error;
    }
  };

  /** Sends the page's new candidates, one group at a time. */
  const sendCandidates = async () => {
    const page = postsPageOf(new URL(location.href));
    if (!page || !watch || sending || blocked || stopped) return;
    const groups = candidateGroups(page, pagePosts(), watch, sent, now());
    if (groups.length === 0) return;
    sending = true;
    let made = false;
    try {
      for (const group of groups) {
        if (stopped || blocked) break;
        for (const post of group.posts) sent.add(post.urn);
        try {
          made = (await draftGroup(group)).drafts.length > 0 || made;
        } catch {
          break;
        }
      }
    } finally {
      sending = false;
    }
    // Drafted keywords are no longer due: the next page gets fresh lists.
    if (made)
      void api.watch(true).then(
        (fresh) => (watch = fresh),
        () => undefined,
      );
  };

  const draftButton = (post: PagePost) => {
    const anchor = post.element.querySelector('.feed-shared-social-action-bar') ?? post.element;
    void mountShadowUi(ctx, anchor, anchor === post.element ? 'append' : 'after', (container) => {
      const root = el('div', 'parley');
      const button = el('button', '', t('draftButton'));
      button.type = 'button';
      button.dataset.parley = 'draft-post';
      root.append(button);
      container.append(root);
      listenTrusted(button, 'click', () => {
        // Read again at the click: the post's text may have grown ("…more").
        const fresh = post.element.isConnected ? readPost(post.element, now()) : post;
        button.disabled = true;
        showText(button, t('drafting'));
        sent.add(post.urn);
        draftGroup({ posts: [toCandidate(fresh, postsPageOf(new URL(location.href))?.kind ?? 'feed')], manual: true })
          .catch(() => undefined)
          .finally(() => {
            button.disabled = false;
            showText(button, t('draftButton'));
          });
      });
    }).then(
      (ui) => {
        if (stopped || !post.element.isConnected) ui.remove();
        else buttons.set(post.element, ui);
      },
      () => buttons.delete(post.element),
    );
  };

  /** The reads of the numbers on each page (LinkedIn fills its cards in late, but a whole-page read is not cheap). */
  const statsReads = new Map<string, { count: number; at: number }>();
  let statsLater = 0;
  const readNumbers = () => {
    const page = statsPageOf(new URL(location.href), document);
    if (!page) return;
    const reads = statsReads.get(location.pathname) ?? { count: 0, at: 0 };
    if (reads.count >= STATS_READS_MAX) return;
    const wait = reads.at + STATS_READ_EVERY_MS - Date.now();
    if (wait > 0) {
      // Too soon after the last read: once more when it is time, in case the page changes no more.
      if (!statsLater) statsLater = ctx.setTimeout(() => ((statsLater = 0), scan()), wait);
      return;
    }
    statsReads.set(location.pathname, { count: reads.count + 1, at: Date.now() });
    const day = localDay(now());
    const readings = Object.entries(readStats(document))
      .filter(([metric]) => !statsSent.has(metric as LinkedinMetric))
      .map(([metric, value]): LinkedinReading => ({ metric: metric as LinkedinMetric, value: value!, day }));
    if (readings.length === 0) return;
    for (const reading of readings) statsSent.add(reading.metric);
    void api.stats(readings).catch(() => undefined);
  };

  const scan = () => {
    if (stopped) return;
    for (const [element, ui] of buttons) {
      if (!element.isConnected && ui) {
        ui.remove();
        buttons.delete(element);
      }
    }
    readNumbers();
    const page = postsPageOf(new URL(location.href));
    list?.setShown(page !== null);
    if (!page || !watch) return;
    if (showList()) {
      for (const post of pagePosts()) {
        if (!buttons.has(post.element)) {
          buttons.set(post.element, null);
          draftButton(post);
        }
      }
      render();
    }
    clearTimeout(sendTimer);
    sendTimer = setTimeout(() => void sendCandidates(), options.sendAfterMs ?? SEND_AFTER_MS);
  };

  let unwatch: () => void = () => undefined;
  void (async () => {
    try {
      watch = await api.watch();
    } catch {
      // Not reachable or signed out meanwhile: no watch lists, the per-post button still drafts on request.
      watch = { keywords: [], profiles: [], settings: FALLBACK_SETTINGS };
    }
    if (stopped) return;
    if (showList()) {
      try {
        for (const draft of await api.pending()) drafts.set(draft.id, draft);
      } catch {
        // The list starts empty.
      }
      if (stopped) return;
      const onPage = [...drafts.values()].some((d) => findPost(document, d.postUrn));
      if (onPage) await ensureList();
    }
    unwatch = watchPage(ctx, scan, 400);
  })();

  return () => {
    stopped = true;
    clearTimeout(sendTimer);
    unwatch();
    for (const ui of buttons.values()) ui?.remove();
    buttons.clear();
    void listUi?.then((ui) => ui.remove());
  };
}
