/** What every site module knows about its pages. Pure DOM: no extension APIs, no network. */

export type SiteId = 'gmail' | 'outlook' | 'linkedin' | 'instagram' | 'facebook' | 'youtube' | 'x' | 'search';

/** §3 extension settings that switch a site's features on or off (flags '1' / '0'). */
export type InstantReplySetting =
  | 'instantReplyGmail'
  | 'instantReplyOutlook'
  | 'instantReplyLinkedin'
  | 'instantReplyInstagram'
  | 'instantReplyFacebook'
  | 'instantReplyYoutube'
  | 'instantReplyTwitter';
export type SummarizeSetting = 'summarizeGmail' | 'summarizeOutlook' | 'summarizeYoutube';

export interface SiteMeta {
  id: SiteId;
  /** WXT / manifest match patterns for this site's content script. */
  matches: string[];
  instantReply?: InstantReplySetting;
  summarize?: SummarizeSetting;
  searchWithAI?: 'searchWithAI';
}

export type ContextKind = 'mail' | 'post' | 'comment-thread' | 'message-thread' | 'video';

/** What a reply should answer. `text` is page content: data for the model, never instructions. */
export interface SiteContext {
  kind: ContextKind;
  title?: string;
  author?: string;
  text: string;
}

/** Where the instant-reply button goes relative to `anchor`. */
export type Placement = 'before' | 'after' | 'append' | 'prepend';

export interface ReplyTarget {
  /** The editor the reply is inserted into (a textarea or a contenteditable element). */
  editor: HTMLElement;
  /** A stable element near the editor to place (or position) the reply button against. */
  anchor: HTMLElement;
  placement: Placement;
  kind: 'reply' | 'compose' | 'comment' | 'message';
}

/** How a text reached the editor (see shared/insert.ts). */
export type InsertMethod = 'value-setter' | 'beforeinput' | 'exec-command' | 'paste' | 'dom';

export interface SummaryAnchor {
  anchor: HTMLElement;
  placement: Placement;
}

export interface MailSummarySource {
  kind: 'mail';
  title?: string;
  author?: string;
  text: string;
}

export interface VideoSummarySource {
  kind: 'video';
  /** The `v` id; with no transcript on the page the server fetches it by this id. */
  videoId: string | null;
  title?: string;
  channel?: string;
  description?: string;
  /** Present only when the transcript panel is open on the page. */
  transcript?: string;
  /** Title, channel, description and transcript as one capped text. */
  text: string;
}

export type ContextSource = ReplyTarget | Element | Document;

/** The module every reply site exports (gmail, outlook, linkedin, instagram, facebook, youtube, x). */
export interface ReplySite extends SiteMeta {
  match(url: URL): boolean;
  findReplyTargets(root: ParentNode): ReplyTarget[];
  readContext(from: ContextSource): SiteContext;
  /** The method that took effect, or null when the editor reacted to none (nothing was inserted). */
  insertText(editor: HTMLElement, text: string): InsertMethod | null;
}

/** Gmail and Outlook: where Parley puts a signature in a mail editor, and which account is writing. */
export interface MailEditorSite {
  /** The top-level child of the editor the signature goes before (the quoted original), or null for the end. */
  signatureSlot(editor: HTMLElement): ChildNode | null;
  /** The address of the account the page is writing from, when the page shows it (lower case). */
  accountAddress(doc: Document): string | null;
}

export interface MailSummarySite {
  findSummaryAnchor(root: ParentNode): SummaryAnchor | null;
  readForSummary(root: ParentNode): MailSummarySource | null;
}

export interface VideoSummarySite {
  findSummaryAnchor(root: ParentNode): SummaryAnchor | null;
  readForSummary(root: ParentNode, url: URL): VideoSummarySource | null;
}
