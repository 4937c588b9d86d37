/**
 * YouTube watch pages. Selectors use YouTube's Polymer element names and ids (ytd-watch-metadata,
 * ytd-commentbox #contenteditable-root, ytd-transcript-segment-renderer), which are language-independent.
 * Polymer repeats ids (every comment has #author-text, every reply box #contenteditable-root), so ids are matched
 * as [id="…"]: an #id selector may be resolved document-wide first (jsdom does) and miss scoped duplicates.
 *
 * Editing: the comment box is a plain contenteditable that YouTube reads on input (to enable Comment) and on
 * submit. So: execCommand('insertText'), else text with <br> line breaks and an `input` event. The box exists only
 * after the "Add a comment…" placeholder is clicked; until then there is no target.
 */
import { insertText as insertWith } from '../shared/insert.js';
import { all, first, firstOf } from '../shared/dom.js';
import { CONTEXT_CAP, capText, sections, visibleText } from '../shared/text.js';
import type {
  ContextSource,
  InsertMethod,
  ReplyTarget,
  SiteContext,
  SummaryAnchor,
  VideoSummarySource,
} from '../shared/types.js';

const S = {
  editor: 'ytd-commentbox [id="contenteditable-root"][contenteditable="true"]',
  box: 'ytd-commentbox',
  buttons: '[id="buttons"]',
  thread: 'ytd-comment-thread-renderer',
  comment: 'ytd-comment-view-model, ytd-comment-renderer',
  commentAuthor: '[id="author-text"]',
  commentText: '[id="content-text"]',
  watch: 'ytd-watch-flexy',
  title: 'ytd-watch-metadata [id="title"] h1, [id="above-the-fold"] [id="title"]',
  channel: 'ytd-watch-metadata ytd-channel-name [id="text"], [id="owner"] ytd-channel-name',
  description: [
    '[id="description-inline-expander"] [id="expanded"]',
    '[id="description-inline-expander"]',
    'ytd-watch-metadata [id="description"]',
  ],
  transcriptSegment: 'ytd-transcript-segment-renderer',
  segmentTime: '.segment-timestamp',
  segmentText: '.segment-text',
  summaryAnchor: ['[id="secondary-inner"]', '[id="secondary"]'],
} as const;

export const selectors = S;

/** Transcripts can be long; a summary gets twice the reply context. */
const SUMMARY_CAP = CONTEXT_CAP * 2;

export function findReplyTargets(root: ParentNode): ReplyTarget[] {
  return all(root, S.editor).map((editor): ReplyTarget => {
    const buttons = first(editor.closest(S.box), S.buttons);
    return { editor, anchor: buttons ?? editor, placement: buttons ? 'prepend' : 'after', kind: 'comment' };
  });
}

function readVideo(doc: ParentNode) {
  return {
    title: visibleText(first(doc, S.title)),
    channel: visibleText(first(doc, S.channel)),
    description: capText(visibleText(firstOf(doc, S.description)), CONTEXT_CAP / 2),
  };
}

export function readContext(from: ContextSource): SiteContext {
  const editor =
    'editor' in from ? from.editor : from.nodeType === 1 ? (from as Element) : first(from as Document, S.editor);
  const doc = editor?.ownerDocument ?? (from as Document);
  const video = readVideo(doc);
  const about = sections([
    ['Video', video.title],
    ['Channel', video.channel],
    ['Description', video.description],
  ]);
  // A reply box inside a comment thread answers that comment.
  const comment = first(editor?.closest(S.thread), S.comment);
  if (comment) {
    const author = visibleText(first(comment, S.commentAuthor));
    const text = `${about}\n\nReplying to the comment:\n${author}: ${visibleText(first(comment, S.commentText))}`;
    return {
      kind: 'comment-thread',
      title: video.title || undefined,
      author: author || undefined,
      text: capText(text),
    };
  }
  return { kind: 'video', title: video.title || undefined, author: video.channel || undefined, text: capText(about) };
}

export function insertText(editor: HTMLElement, text: string): InsertMethod | null {
  return insertWith(editor, text, { strategies: ['exec-command', 'dom'], lineTag: 'br', newline: 'linebreak' });
}

export function findSummaryAnchor(root: ParentNode): SummaryAnchor | null {
  const column = firstOf(root, S.summaryAnchor);
  if (column) return { anchor: column, placement: 'prepend' };
  const title = first(root, S.title);
  return title ? { anchor: title, placement: 'after' } : null;
}

/** Title, channel, description, and the transcript when its panel is on the page; else the id for the server. */
export function readForSummary(root: ParentNode, url: URL): VideoSummarySource | null {
  const videoId = url.searchParams.get('v') ?? first(root, S.watch)?.getAttribute('video-id') ?? null;
  const video = readVideo(root);
  if (!videoId && !video.title) return null;
  const segments = all(root, S.transcriptSegment).map((segment) => {
    const time = visibleText(first(segment, S.segmentTime));
    const text = visibleText(first(segment, S.segmentText));
    return time ? `${time} ${text}` : text;
  });
  const transcript = segments.length ? capText(segments.join('\n'), SUMMARY_CAP) : undefined;
  const text = sections([
    ['Video', video.title],
    ['Channel', video.channel],
    ['Description', video.description],
    ['Transcript', transcript ? `\n${transcript}` : ''],
  ]);
  return {
    kind: 'video',
    videoId,
    title: video.title || undefined,
    channel: video.channel || undefined,
    description: video.description || undefined,
    transcript,
    text: capText(text, SUMMARY_CAP),
  };
}
